import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { server } from '../../test/server';
import { apiUrl, http, ok } from '../../test/api';
import { renderRoute } from '../../test/router';
import { chooseOption } from '../../test/select';
import { setToken } from '../../lib/token';
import { useMenuStore } from '../../lib/stores/menu-store';
import { useProjectStore } from '../../lib/stores/project-store';
import { PermissionsRoute } from './permissions';

function serveProject(permissions: string[]) {
  setToken('tok');
  useMenuStore.getState().setPersonMenu([], permissions);
  useProjectStore
    .getState()
    .selectProject({ projectCode: 'HF-REG', projectId: 'p-1', projectName: '心衰登记', subProject: false });
  const project = { id: 'p-1', projectName: '心衰登记', projectCode: 'HF-REG', subProject: false };
  server.use(
    http.get(apiUrl('/web-project/current'), () => ok(project)),
    http.get(apiUrl('/web-project/change'), () => ok(project)),
  );
}

describe('权限管理 route', () => {
  it('should send the chosen filters when the audit trail is queried', async () => {
    serveProject(['audit.view']);
    const bodies: Record<string, unknown>[] = [];
    server.use(
      http.get(apiUrl('/audit-event/options'), () =>
        ok({
          actors: [{ id: 'u-1', name: '张伟', username: 'zhangwei' }],
          actions: [{ value: 'member.add', label: '添加成员' }],
          entityTypes: [{ value: 'member', label: '项目成员' }],
        }),
      ),
      http.post(apiUrl('/audit-event/page'), async ({ request }) => {
        bodies.push((await request.json()) as Record<string, unknown>);
        return ok({
          records: [
            {
              id: 7,
              at: '2026-11-21T03:00:00.000Z',
              actor: { id: 'u-1', name: '张伟', username: 'zhangwei' },
              action: 'member.update',
              actionLabel: '修改成员',
              entityType: 'member',
              entityLabel: '项目成员',
              entityId: 'm-2',
              entityName: '刘娜',
              oldValue: { roleName: '只读成员' },
              newValue: { roleName: '数据录入员' },
              valueNames: {},
              fieldLabels: {},
              reason: null,
              requestId: 'req-1',
              ip: '10.0.0.8',
            },
          ],
          total: 1,
          current: 1,
          size: 20,
          anchorId: 7,
        });
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderRoute(<PermissionsRoute />, { path: '/manage/permissions', at: '/manage/permissions?tab=audit' });
    expect(await screen.findByText('数据录入员')).toBeInTheDocument();
    expect(screen.getByText('只读成员')).toBeInTheDocument();
    expect(screen.getByText('：刘娜')).toBeInTheDocument();
    // Without permission.manage the member and role tabs are not offered.
    expect(screen.queryByRole('tab', { name: '成员管理' })).not.toBeInTheDocument();
    await chooseOption(user, '操作类型', '添加成员');
    await chooseOption(user, '对象类型', '项目成员');
    await user.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() =>
      expect(bodies.at(-1)).toEqual({
        current: 1,
        size: 20,
        action: 'member.add',
        entityType: 'member',
      }),
    );
  });
});
