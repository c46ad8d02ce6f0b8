import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { server } from '../../../test/server';
import { apiUrl, http, ok } from '../../../test/api';
import { renderRoute } from '../../../test/router';
import { chooseOption } from '../../../test/select';
import { setToken } from '../../../lib/token';
import { useMenuStore } from '../../../lib/stores/menu-store';
import { useProjectStore } from '../../../lib/stores/project-store';
import { CenterPage } from './center-page';

const project = { id: 'p-1', projectName: '心衰登记', projectCode: 'HF-REG', subProject: false };
const defaultCenter = {
  id: 'c-1',
  code: 'C01',
  name: '示例第一人民医院',
  organisationId: 'o-1',
  organisationName: '示例第一人民医院',
  leadUserId: 'u-1',
  leadName: '王主任',
  status: 'active',
  isDefault: true,
  memberCount: 3,
  createdAt: '2026-11-01T00:00:00.000Z',
};

function serve(permissions: string[]) {
  setToken('tok');
  useMenuStore.getState().setPersonMenu([], permissions);
  useProjectStore
    .getState()
    .selectProject({ projectCode: 'HF-REG', projectId: 'p-1', projectName: '心衰登记', subProject: false });
  server.use(
    http.get(apiUrl('/web-project/current'), () => ok(project)),
    http.get(apiUrl('/project-center/list'), () => ok([defaultCenter])),
    http.get(apiUrl('/web-project/org-list'), () =>
      ok([
        { id: 'o-1', name: '示例第一人民医院' },
        { id: 'o-2', name: '示例第二人民医院' },
      ]),
    ),
    http.post(apiUrl('/project-member/page'), () =>
      ok({
        records: [
          {
            id: 'm-2',
            userId: 'u-2',
            username: 'liuna',
            name: '刘娜',
            phone: null,
            departmentName: '心血管内科',
            roleId: 'r-lead',
            roleName: '分中心负责人',
            centerId: null,
            centerName: null,
            owner: false,
            disabled: false,
            joinedAt: '2026-11-01T00:00:00.000Z',
          },
        ],
        total: 1,
        current: 1,
        size: 200,
      }),
    ),
  );
}

describe('CenterPage', () => {
  it('should create a center with its organisation and lead when 新增分中心 is submitted', async () => {
    serve(['center.manage']);
    const bodies: unknown[] = [];
    server.use(
      http.post(apiUrl('/project-center'), async ({ request }) => {
        bodies.push(await request.json());
        return ok(null);
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderRoute(<CenterPage />, { path: '/manage/sub-center', at: '/manage/sub-center' });
    expect(await screen.findByText('默认', {}, { timeout: 20_000 })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /新增分中心/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('中心编号'), { target: { value: 'C02' } });
    fireEvent.change(within(dialog).getByLabelText('中心名称'), { target: { value: '华东分中心' } });
    await chooseOption(user, '所属机构', '示例第二人民医院');
    await chooseOption(user, '负责人', /刘娜/);
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() =>
      expect(bodies).toEqual([{ code: 'C02', name: '华东分中心', organisationId: 'o-2', leadUserId: 'u-2' }]),
    );
  });

  it('should offer no 新增分中心 nor row actions when the user lacks center.manage', async () => {
    serve([]);
    renderRoute(<CenterPage />, { path: '/manage/sub-center', at: '/manage/sub-center' });
    expect(await screen.findByText('默认', {}, { timeout: 20_000 })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /新增分中心/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /编辑/ })).not.toBeInTheDocument();
  });
});
