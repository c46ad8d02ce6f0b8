import type { ReactNode } from 'react';
import { Card, Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { PERMISSIONS, hasAnyPermission } from '@registry/shared/permissions';
import { ProjectScope } from '../../../lib/project-scope';
import { useMenuStore } from '../../../lib/stores/menu-store';
import { useProjectStore } from '../../../lib/stores/project-store';
import { MembersTab } from './members-tab';
import { RolesTab } from './roles-tab';

/**
 * `/manage/permissions`: 成员管理 and 角色管理 (`permission.manage`), and 操作日志 (`audit.view`, also `?tab=audit`): the
 * audit feature's tab, which the route composes in (`app/pages`).
 */
export function PermissionsPage({ auditTab }: { auditTab?: ReactNode }) {
  const [params, setParams] = useSearchParams();
  const held = useMenuStore((s) => s.permissions);
  const projectName = useProjectStore((s) => s.projectName);
  const canManage = hasAnyPermission(held, [PERMISSIONS.permissionManage]);
  const canAudit = hasAnyPermission(held, [PERMISSIONS.auditView]);
  const items = [
    ...(canManage
      ? [
          { key: 'members', label: '成员管理', children: <MembersTab /> },
          { key: 'roles', label: '角色管理', children: <RolesTab /> },
        ]
      : []),
    ...(canAudit && auditTab ? [{ key: 'audit', label: '操作日志', children: auditTab }] : []),
  ];
  const wanted = params.get('tab') ?? 'members';
  const active = items.some((item) => item.key === wanted) ? wanted : items[0]?.key;

  return (
    <Card title={projectName ? `权限管理 · ${projectName}` : '权限管理'} variant="borderless">
      <ProjectScope>
        <Tabs
          activeKey={active}
          onChange={(key) => setParams({ tab: key }, { replace: true })}
          items={items}
          destroyOnHidden
        />
      </ProjectScope>
    </Card>
  );
}
