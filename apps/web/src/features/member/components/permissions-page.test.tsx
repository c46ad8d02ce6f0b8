import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MemberVO } from '@registry/shared/contracts/member';
import { server } from '../../../test/server';
import { apiUrl, http, ok } from '../../../test/api';
import { renderRoute } from '../../../test/router';
import { chooseOption } from '../../../test/select';
import { setToken } from '../../../lib/token';
import { useMenuStore } from '../../../lib/stores/menu-store';
import { useProjectStore } from '../../../lib/stores/project-store';
import { PermissionsPage } from './permissions-page';

const owner: MemberVO = {
  id: 'm-1',
  userId: 'u-1',
  username: 'zhangwei',
  name: '张伟',
  phone: null,
  departmentName: '心血管内科',
  roleId: 'r-owner',
  roleName: '项目负责人',
  centerId: null,
  centerName: null,
  owner: true,
  disabled: false,
  joinedAt: '2026-11-01T00:00:00.000Z',
};

const roles = [
  {
    id: 'r-owner',
    code: 'project_owner',
    name: '项目负责人',
    builtIn: true,
    permissions: ['home.view'],
    memberCount: 1,
  },
  {
    id: 'r-entry',
    code: 'data_entry',
    name: '数据录入员',
    builtIn: true,
    permissions: ['home.view', 'patient.add'],
    memberCount: 0,
  },
];
const centers = [
  {
    id: 'c-1',
    code: 'C01',
    name: '华东分中心',
    organisationId: 'o-1',
    organisationName: '示例第一人民医院',
    leadUserId: null,
    leadName: null,
    status: 'active',
    isDefault: false,
    memberCount: 0,
    createdAt: '2026-11-01T00:00:00.000Z',
  },
];

function serveProject(permissions: string[] = ['permission.manage', 'audit.view']) {
  setToken('tok');
  useMenuStore.getState().setPersonMenu([], permissions);
  useProjectStore
    .getState()
    .selectProject({ projectCode: 'HF-REG', projectId: 'p-1', projectName: '心衰登记', subProject: false });
  server.use(
    http.get(apiUrl('/web-project/current'), () =>
      ok({ id: 'p-1', projectName: '心衰登记', projectCode: 'HF-REG', subProject: false }),
    ),
    http.get(apiUrl('/web-project/change'), () =>
      ok({ id: 'p-1', projectName: '心衰登记', projectCode: 'HF-REG', subProject: false }),
    ),
    http.post(apiUrl('/project-member/page'), () => ok({ records: [owner], total: 1, current: 1, size: 10 })),
    http.get(apiUrl('/project-role/list'), () => ok(roles)),
    http.get(apiUrl('/project-center/list'), () => ok(centers)),
    http.get(apiUrl('/web-project/current-project-tenant-doctors'), () =>
      ok([
        { id: 'u-1', name: '张伟', username: 'zhangwei', departmentName: '心血管内科' },
        { id: 'u-2', name: '刘娜', username: 'liuna', departmentName: '心血管内科' },
      ]),
    ),
  );
}

describe('PermissionsPage', () => {
  it('should add an existing user with the data-entry role at the chosen center when 添加成员 is submitted', async () => {
    serveProject();
    const bodies: unknown[] = [];
    server.use(
      http.post(apiUrl('/project-member'), async ({ request }) => {
        bodies.push(await request.json());
        return ok(null);
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderRoute(<PermissionsPage />, { path: '/manage/permissions', at: '/manage/permissions' });
    expect(await screen.findByText('张伟', {}, { timeout: 20_000 })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /添加成员/ }));
    // jsdom gives every useId the same value, so the dialog is found by role and its title checked inside.
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('添加成员')).toBeInTheDocument();
    await chooseOption(user, '用户', /刘娜/);
    await chooseOption(user, '角色', '数据录入员');
    await chooseOption(user, '中心', '华东分中心');
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(bodies).toEqual([{ userId: 'u-2', roleId: 'r-entry', centerId: 'c-1' }]));
  });

  it('should show the initial password once when a new account is created', async () => {
    serveProject();
    const bodies: unknown[] = [];
    server.use(
      http.post(apiUrl('/project-member/account'), async ({ request }) => {
        bodies.push(await request.json());
        return ok({
          member: { ...owner, id: 'm-3', userId: 'u-3', username: 'wangfang', name: '王芳', owner: false },
          initialPassword: 'Init2026pw',
        });
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderRoute(<PermissionsPage />, { path: '/manage/permissions', at: '/manage/permissions' });
    await user.click(await screen.findByRole('button', { name: /添加成员/ }));
    // jsdom gives every useId the same value, so the dialog is found by role and its title checked inside.
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('添加成员')).toBeInTheDocument();
    await user.click(within(dialog).getByText('新建账号'));
    fireEvent.change(await within(dialog).findByLabelText('用户名'), { target: { value: 'wangfang' } });
    fireEvent.change(within(dialog).getByLabelText('姓名'), { target: { value: '王芳' } });
    await chooseOption(user, '角色', '数据录入员');
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByText('Init2026pw')).toBeInTheDocument();
    expect(bodies).toEqual([
      { username: 'wangfang', name: '王芳', phone: null, departmentName: null, roleId: 'r-entry', centerId: null },
    ]);
  });

  it('should create a custom role with the checked permission codes when 新建角色 is submitted', async () => {
    serveProject();
    const bodies: unknown[] = [];
    server.use(
      http.post(apiUrl('/project-role'), async ({ request }) => {
        bodies.push(await request.json());
        return ok(null);
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderRoute(<PermissionsPage />, { path: '/manage/permissions', at: '/manage/permissions?tab=roles' });
    // Built-in roles show their codes as Chinese labels.
    expect(await screen.findByText('数据录入员')).toBeInTheDocument();
    expect(screen.getAllByText('新增患者').length).toBeGreaterThan(0);
    await user.click(screen.getByRole('button', { name: /新建角色/ }));
    const dialog = await screen.findByRole('dialog', { name: '新建角色' });
    fireEvent.change(within(dialog).getByLabelText('角色名称'), { target: { value: '影像核查员' } });
    fireEvent.change(within(dialog).getByLabelText('角色编码'), { target: { value: 'image_checker' } });
    await user.click(within(dialog).getByText('查看患者'));
    await user.click(within(dialog).getByText('确认AI识别'));
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() =>
      expect(bodies).toEqual([
        { code: 'image_checker', name: '影像核查员', permissions: ['patient.list', 'discern.edit'] },
      ]),
    );
  });
});
