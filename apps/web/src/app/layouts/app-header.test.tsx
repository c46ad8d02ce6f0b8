import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import userEvent from '@testing-library/user-event';
import type { UserInfo } from '@registry/shared/contracts/user';
import { server } from '../../test/server';
import { apiUrl, http, HttpResponse, ok } from '../../test/api';
import { renderRoute } from '../../test/router';
import { buildProject, buildUserInfo } from '../../test/factories';
import { getToken, setToken } from '../../lib/token';
import { useAppStore } from '../../lib/stores/app-store';
import { useProjectStore } from '../../lib/stores/project-store';
import { recordToasts } from '../../test/fake-toast';
import { Providers } from '../providers';
import { createQueryClient } from '../query-client';
import { AppHeader } from './app-header';

function serveUser(user: UserInfo, organisation = { hospitalName: '示例第一人民医院', departmentName: '心血管内科' }) {
  server.use(
    http.get(apiUrl('/sys-user/user-info'), () => ok(user)),
    http.get(apiUrl('/notification/unread-count'), () => ok({ count: 0 })),
    http.post(apiUrl('/web-project/list'), () => ok({ ...organisation, projectVOs: [] })),
  );
}

async function openMenu() {
  const user = userEvent.setup({ delay: null });
  await user.click(await screen.findByRole('button', { name: '用户菜单' }));
  return user;
}

describe('AppHeader', () => {
  it('should show the project, the hospital, the dashed department and the user name when in the main layout', async () => {
    setToken('tok');
    serveUser(buildUserInfo({ name: '王主任' }));
    useAppStore.getState().setOrganisation('示例第一人民医院', '心血管内科');
    useProjectStore
      .getState()
      .selectProject({ projectCode: 'HF', projectId: 'p1', projectName: '心衰登记', subProject: false });
    renderRoute(<AppHeader showProject />, { path: '/home', at: '/home' });
    expect(await screen.findByText('王主任')).toBeInTheDocument();
    expect(screen.getByText('心衰登记')).toBeInTheDocument();
    expect(screen.getByText('示例第一人民医院')).toBeInTheDocument();
    expect(screen.getByText('-心血管内科')).toBeInTheDocument();
  });

  it("should replace a previous user's stored hospital and department with the signed-in user's", async () => {
    setToken('tok');
    useAppStore.getState().setOrganisation('示例第一人民医院', '内分泌科');
    serveUser(buildUserInfo({ name: '王主任' }), { hospitalName: '示例第一人民医院', departmentName: '心血管内科' });
    renderRoute(<AppHeader showProject={false} />, { path: '/person/project-manage', at: '/person/project-manage' });
    expect(await screen.findByText('-心血管内科')).toBeInTheDocument();
    expect(screen.queryByText('-内分泌科')).not.toBeInTheDocument();
    expect(localStorage.getItem('departmentName')).toBe('心血管内科');
  });

  it('should leave the project name out when in the personal layout', async () => {
    setToken('tok');
    serveUser(buildUserInfo());
    useProjectStore
      .getState()
      .selectProject({ projectCode: 'HF', projectId: 'p1', projectName: '心衰登记', subProject: false });
    renderRoute(<AppHeader showProject={false} />, { path: '/person/project', at: '/person/project' });
    expect(await screen.findByText('张伟')).toBeInTheDocument();
    expect(screen.queryByText('心衰登记')).not.toBeInTheDocument();
  });

  it('should offer tenant switch and form configuration when the tenant is sys', async () => {
    setToken('tok');
    serveUser(buildUserInfo({ tenantCode: 'sys', homeTenantCode: 'sys', tenant: { id: 't0', tenantType: 'SYSTEM' } }));
    renderRoute(<AppHeader showProject />, { path: '/home', at: '/home' });
    await screen.findByText('张伟');
    await openMenu();
    expect(await screen.findByRole('menuitem', { name: /切换租户/ })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: /配置表单/ })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: /切换项目/ })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: /修改密码/ })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: /头像设置/ })).not.toBeInTheDocument();
  });

  it('should hide switch project and offer the avatar when a PERSONAL user is on /person/project', async () => {
    setToken('tok');
    serveUser(buildUserInfo({ tenantCode: 'p-li', tenant: { id: 't9', tenantType: 'PERSONAL' } }));
    renderRoute(<AppHeader showProject={false} />, { path: '/person/project', at: '/person/project' });
    await screen.findByText('张伟');
    await openMenu();
    expect(await screen.findByRole('menuitem', { name: /头像设置/ })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: /切换项目/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: /切换租户/ })).not.toBeInTheDocument();
  });

  it('should open /manage/database in a new window with the project id and name when 配置表单 is chosen', async () => {
    setToken('tok');
    serveUser(buildUserInfo({ tenantCode: 'sys', homeTenantCode: 'sys', tenant: { id: 't0', tenantType: 'SYSTEM' } }));
    useProjectStore
      .getState()
      .selectProject({ projectCode: 'HF', projectId: 'p1', projectName: '心衰 登记', subProject: false });
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    renderRoute(<AppHeader showProject />, { path: '/home', at: '/home' });
    await screen.findByText('张伟');
    const user = await openMenu();
    await user.click(await screen.findByRole('menuitem', { name: /配置表单/ }));
    expect(open).toHaveBeenCalledWith(
      '/manage/database?projectId=p1&projectName=%E5%BF%83%E8%A1%B0+%E7%99%BB%E8%AE%B0',
    );
    open.mockRestore();
  });

  it('should call auth/change and say 操作成功 when a tenant code is entered', async () => {
    setToken('tok');
    serveUser(buildUserInfo({ tenantCode: 'sys', homeTenantCode: 'sys', tenant: { id: 't0', tenantType: 'SYSTEM' } }));
    let tenantCode: string | null = null;
    server.use(
      http.get(apiUrl('/auth/change'), ({ request }) => {
        tenantCode = new URL(request.url).searchParams.get('tenantCode');
        return ok(null);
      }),
    );
    renderRoute(<AppHeader showProject />, { path: '/home', at: '/home' });
    await screen.findByText('张伟');
    const user = await openMenu();
    await user.click(await screen.findByRole('menuitem', { name: /切换租户/ }));
    await user.type(await screen.findByLabelText('租户编码'), 'renji');
    await user.click(screen.getByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByText('操作成功')).toBeInTheDocument();
    expect(tenantCode).toBe('renji');
  });

  it('should log out, clear the token and go to /login when 退出登录 is chosen', async () => {
    setToken('tok');
    serveUser(buildUserInfo());
    const loggedOut = vi.fn();
    server.use(
      http.post(apiUrl('/auth/logout'), () => {
        loggedOut();
        return ok(null);
      }),
    );
    renderRoute(<AppHeader showProject />, { path: '/home', at: '/home' });
    await screen.findByText('张伟');
    const user = await openMenu();
    await user.click(await screen.findByRole('menuitem', { name: /退出登录/ }));
    expect(await screen.findByTestId('location')).toHaveTextContent('/login');
    expect(loggedOut).toHaveBeenCalled();
    expect(getToken()).toBeNull();
  });

  it('should fire no call the server refuses with 401 when the user logs out', async () => {
    setToken('tok');
    // A server that, like the real one, answers 401 to a revoked or missing token.
    let revoked = false;
    const refused: string[] = [];
    const guarded =
      <T,>(data: T) =>
      ({ request }: { request: Request }) => {
        if (revoked || request.headers.get('authorization') !== 'Bearer tok') {
          refused.push(new URL(request.url).pathname);
          return HttpResponse.json({ status: 401, message: '登录已过期，请重新登录', data: null }, { status: 401 });
        }
        return ok(data);
      };
    server.use(
      http.get(apiUrl('/sys-user/user-info'), guarded(buildUserInfo())),
      http.get(apiUrl('/notification/unread-count'), guarded({ count: 2 })),
      http.post(apiUrl('/web-project/list'), guarded({ hospitalName: '医院', departmentName: '科室', projectVOs: [] })),
      http.post(apiUrl('/auth/logout'), (info) => {
        const answer = guarded(null)(info);
        revoked = true;
        return answer;
      }),
    );
    const toasts = recordToasts();
    // As in the app, every navigation first runs the root loader (the guard's version check takes a moment), so the
    // page stays mounted while the navigation to /login is pending.
    const router = createMemoryRouter(
      [
        {
          path: '/',
          loader: () => new Promise<null>((resolve) => setTimeout(() => resolve(null), 150)),
          shouldRevalidate: () => true,
          element: <Outlet />,
          children: [
            { path: 'home', element: <AppHeader showProject /> },
            { path: 'login', element: <p data-testid="location">/login</p> },
          ],
        },
      ],
      { initialEntries: ['/home'] },
    );
    render(
      <Providers queryClient={createQueryClient()}>
        <RouterProvider router={router} />
      </Providers>,
    );
    await screen.findByText('张伟');
    const user = await openMenu();
    await user.click(await screen.findByRole('menuitem', { name: /退出登录/ }));
    expect(await screen.findByTestId('location')).toHaveTextContent('/login');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(refused).toEqual([]);
    expect(toasts.filter(([kind]) => kind === 'error')).toEqual([]);
    expect(getToken()).toBeNull();
    expect(revoked).toBe(true);
  });

  it('should open the set-password dialog at once when the user still has the initial password', async () => {
    setToken('tok');
    serveUser(buildUserInfo({ initPwd: true }));
    renderRoute(<AppHeader showProject={false} />, { path: '/person/project', at: '/person/project' });
    expect(await screen.findByRole('dialog', { name: '设置密码' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByLabelText('原密码')).not.toBeInTheDocument());
  });

  it('should open the set-password dialog instead of signing out when a call answers 428', async () => {
    setToken('tok');
    // The cached user info says nothing (e.g. the password was reset since): the server's 428 opens the dialog.
    server.use(
      http.get(apiUrl('/sys-user/user-info'), () => ok(buildUserInfo({ initPwd: false }))),
      http.get(apiUrl('/notification/unread-count'), () => ok({ count: 0 })),
      http.post(apiUrl('/web-project/list'), () =>
        HttpResponse.json({ status: 428, message: '请先设置新密码', data: null }, { status: 428 }),
      ),
    );
    renderRoute(<AppHeader showProject={false} />, { path: '/person/project', at: '/person/project' });
    expect(await screen.findByRole('dialog', { name: '设置密码' })).toBeInTheDocument();
    expect(screen.queryByLabelText('原密码')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: '退出登录' })).toBeInTheDocument();
    expect(getToken()).toBe('tok');
    expect(screen.queryByTestId('location')).not.toBeInTheDocument(); // still on the page: no redirect to /login
  });

  it('should show the acting tenant when a system administrator has switched into a hospital', async () => {
    setToken('tok');
    serveUser({
      ...buildUserInfo({ tenantCode: 'demo1' }),
      homeTenantCode: 'sys',
      tenantName: '示例第一人民医院',
    } as ReturnType<typeof buildUserInfo>);
    renderRoute(<AppHeader showProject={false} />, { path: '/person/project', at: '/person/project' });
    expect(await screen.findByText('当前租户：示例第一人民医院')).toBeInTheDocument();
  });

  it('should show no tenant tag when the user is in their home tenant', async () => {
    setToken('tok');
    serveUser({ ...buildUserInfo(), homeTenantCode: 'renji', tenantName: '仁济医院' } as ReturnType<
      typeof buildUserInfo
    >);
    renderRoute(<AppHeader showProject={false} />, { path: '/person/project', at: '/person/project' });
    await screen.findByText('张伟');
    expect(screen.queryByText(/当前租户/)).not.toBeInTheDocument();
  });
});

describe('AppHeader for a system administrator switched into a tenant', () => {
  const switchedAdmin = (supportAccessUntil: string | null = null) =>
    buildUserInfo({
      tenantCode: 'h001',
      homeTenantCode: 'sys',
      tenantName: '示例第一人民医院',
      tenant: { id: 't1', tenantType: 'HOSPITAL' },
      supportAccessUntil,
    });

  it('should keep 切换租户 and 配置表单 after the switch and offer the way back to the system tenant', async () => {
    setToken('tok');
    let user = switchedAdmin();
    serveUser(user);
    let tenantCode: string | null = null;
    server.use(
      http.get(apiUrl('/sys-user/user-info'), () => ok(user)),
      http.get(apiUrl('/auth/change'), ({ request }) => {
        tenantCode = new URL(request.url).searchParams.get('tenantCode');
        user = buildUserInfo({ tenantCode: 'sys', homeTenantCode: 'sys', tenant: { id: 't0', tenantType: 'SYSTEM' } });
        return ok(null);
      }),
    );
    useProjectStore
      .getState()
      .selectProject({ projectCode: 'HF', projectId: 'p1', projectName: '心衰登记', subProject: false });
    renderRoute(<AppHeader showProject />, { path: '/home', at: '/home' });
    await screen.findByText('张伟');
    const clicks = await openMenu();
    expect(await screen.findByRole('menuitem', { name: /切换租户/ })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: /配置表单/ })).toBeInTheDocument();
    await clicks.click(screen.getByRole('menuitem', { name: /返回系统租户/ }));
    expect(await screen.findByText('操作成功')).toBeInTheDocument();
    expect(tenantCode).toBe('sys');
    expect(await screen.findByTestId('location')).toHaveTextContent('/person/project');
    expect(useProjectStore.getState().projectId).toBeNull();
    await waitFor(() => expect(screen.queryByText(/当前租户/)).not.toBeInTheDocument());
  });

  it("should drop the previous tenant's stored project when switching tenant", async () => {
    setToken('tok');
    serveUser(buildUserInfo({ tenantCode: 'sys', homeTenantCode: 'sys', tenant: { id: 't0', tenantType: 'SYSTEM' } }));
    server.use(http.get(apiUrl('/auth/change'), () => ok(null)));
    useProjectStore
      .getState()
      .selectProject({ projectCode: 'HF', projectId: 'p1', projectName: '心衰登记', subProject: false });
    renderRoute(<AppHeader showProject />, { path: '/home', at: '/home' });
    await screen.findByText('张伟');
    const clicks = await openMenu();
    await clicks.click(await screen.findByRole('menuitem', { name: /切换租户/ }));
    await clicks.type(await screen.findByLabelText('租户编码'), 'h001');
    await clicks.click(screen.getByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByText('操作成功')).toBeInTheDocument();
    expect(useProjectStore.getState().projectId).toBeNull();
    expect(await screen.findByTestId('location')).toHaveTextContent('/person/project');
  });

  it("should let 配置表单 pick one of the tenant's projects when none is current, never opening empty values", async () => {
    setToken('tok');
    serveUser(switchedAdmin());
    server.use(
      http.post(apiUrl('/web-project/list'), () =>
        ok({
          hospitalName: '示例第一人民医院',
          departmentName: '',
          projectVOs: [buildProject({ id: 'p-hf', projectCode: 'HF-REG', projectName: '心衰登记' })],
        }),
      ),
    );
    useProjectStore.getState().clearProject();
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    renderRoute(<AppHeader showProject={false} />, { path: '/person/project', at: '/person/project' });
    await screen.findByText('张伟');
    const clicks = await openMenu();
    await clicks.click(await screen.findByRole('menuitem', { name: /配置表单/ }));
    const dialog = await screen.findByRole('dialog', { name: '选择要配置表单的项目' });
    expect(open).not.toHaveBeenCalled();
    await clicks.click(within(dialog).getByRole('combobox', { name: '项目' }));
    await clicks.click(await screen.findByTitle('心衰登记（HF-REG）'));
    await clicks.click(within(dialog).getByRole('button', { name: /打\s*开/ }));
    expect(open).toHaveBeenCalledWith(
      '/manage/database?projectId=p-hf&projectName=%E5%BF%83%E8%A1%B0%E7%99%BB%E8%AE%B0',
    );
    open.mockRestore();
  });

  it('should say in the header that patient data is masked and read-only without support access', async () => {
    setToken('tok');
    serveUser(switchedAdmin());
    renderRoute(<AppHeader showProject={false} />, { path: '/person/project', at: '/person/project' });
    const banner = await screen.findByRole('status', { name: '租户提示' });
    expect(banner).toHaveTextContent('当前租户：示例第一人民医院');
    expect(banner).toHaveTextContent('患者数据脱敏只读');
    expect(banner).not.toHaveTextContent('支持访问至');
  });

  it('should say until when support access runs while the tenant grants it', async () => {
    setToken('tok');
    serveUser(switchedAdmin('2026-11-25T10:30:00.000Z'));
    renderRoute(<AppHeader showProject={false} />, { path: '/person/project', at: '/person/project' });
    const banner = await screen.findByRole('status', { name: '租户提示' });
    expect(banner).toHaveTextContent(`支持访问至 ${dayjs('2026-11-25T10:30:00.000Z').format('YYYY-MM-DD HH:mm')}`);
    expect(banner).not.toHaveTextContent('脱敏只读');
  });
});
