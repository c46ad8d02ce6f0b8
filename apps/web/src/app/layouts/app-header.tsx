import type { ReactNode } from 'react';
import { Layout, Tag, Typography } from 'antd';
import { SYS_TENANT_CODE } from '@registry/shared/constants';
import type { UserInfo } from '@registry/shared/contracts/user';
import { useUserInfo } from '../../features/account/api/get-user-info';
import { useAppStore } from '../../lib/stores/app-store';
import { useProjectStore } from '../../lib/stores/project-store';
import { UserMenu } from './user-menu';

/** Fields of user-info that tell a switched system administrator apart (present once the server sends them). */
type TenantFields = { tenantName?: string | null; homeTenantCode?: string | null };

/** The tenant a system administrator acts in after switching, or null when the user is in their home tenant. */
export function actingTenant(info: (UserInfo & TenantFields) | undefined): string | null {
  if (!info?.homeTenantCode || info.homeTenantCode !== SYS_TENANT_CODE) return null;
  if (info.tenantCode === SYS_TENANT_CODE) return null;
  return info.tenantName || info.tenantCode;
}

/** The 48 px header: project name (main layout only), hospital, "-department", the user's avatar dropdown. */
export function AppHeader({ showProject, leading }: { showProject: boolean; leading?: ReactNode }) {
  const hospitalName = useAppStore((s) => s.hospitalName);
  const departmentName = useAppStore((s) => s.departmentName);
  const projectName = useProjectStore((s) => s.projectName);
  const acting = actingTenant(useUserInfo().data);

  return (
    <Layout.Header className="app-header">
      <div className="app-header-left">
        {leading}
        {showProject && projectName && (
          <Typography.Text strong className="header-project" title={projectName}>
            {projectName}
          </Typography.Text>
        )}
      </div>
      <div className="app-header-right">
        {acting && (
          <Tag color="orange" className="header-tenant" title="系统管理员已切换到该租户">
            当前租户：{acting}
          </Tag>
        )}
        {hospitalName && (
          <span className="header-org">
            {hospitalName}
            {departmentName && <span className="header-dept">-{departmentName}</span>}
          </span>
        )}
        <UserMenu />
      </div>
    </Layout.Header>
  );
}
