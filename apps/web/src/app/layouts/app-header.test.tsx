import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import userEvent from '@testing-library/user-event';
import type { UserInfo } from '@registry/shared/contracts/user';
import { server } from '../../test/server';
import { apiUrl, http, HttpResponse, ok } from '../../test/api';
import { renderRoute } from '../../test/router';
import { buildUserInfo } from '../../test/factories';
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
    serveUser(buildUserInfo({ tenantCode: 'sys', tenant: { id: 't0', tenantType: 'SYSTEM' } }));
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
    serveUser(buildUserInfo({ tenantCode: 'sys', tenant: { id: 't0', tenantType: 'SYSTEM' } }));
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
    serveUser(buildUserInfo({ tenantCode: 'sys', tenant: { id: 't0', tenantType: 'SYSTEM' } }));
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
