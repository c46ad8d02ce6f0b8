import { useEffect, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Layout, Tag, Typography } from 'antd';
import { SYS_TENANT_CODE } from '@registry/shared/constants';
import type { UserInfo } from '@registry/shared/contracts/user';
import { formatTime } from '../../lib/format-time';
import { useUserInfo } from '../../api/user-info';
import { NotificationBell } from '../../features/notification/components/notification-bell';
import { listProjects } from '../../features/project/api/list-projects';
import { useAppStore } from '../../lib/stores/app-store';
import { useProjectStore } from '../../lib/stores/project-store';
import { UserMenu } from './user-menu';

/** The tenant a system administrator acts in after switching, or null when the user is in their home tenant. */
export function actingTenant(info: UserInfo | undefined): string | null {
  if (!info?.homeTenantCode || info.homeTenantCode !== SYS_TENANT_CODE) return null;
  if (info.tenantCode === SYS_TENANT_CODE) return null;
  return info.tenantName || info.tenantCode;
}

/**
 * Keeps the stored hospital and department names (seed §3: from `web-project/list`) those of the signed-in user on
 * every page, not only after the project list was opened: a user who signs in and goes straight to another page must
 * not see the previous user's department.
 */
function useOrganisationNames() {
  const setOrganisation = useAppStore((s) => s.setOrganisation);
  const list = useQuery({
    queryKey: ['web-project', 'list', 'all', ''],
    queryFn: () => listProjects(''),
    staleTime: 5 * 60_000,
  });
  useEffect(() => {
    if (list.data) setOrganisation(list.data.hospitalName, list.data.departmentName);
  }, [list.data, setOrganisation]);
}

/**
 * The 48 px header: project name (main layout only), hospital, "-department", the notification bell (main layout
 * only), the user's avatar dropdown.
 */
export function AppHeader({ showProject, leading }: { showProject: boolean; leading?: ReactNode }) {
  useOrganisationNames();
  const hospitalName = useAppStore((s) => s.hospitalName);
  const departmentName = useAppStore((s) => s.departmentName);
  const projectName = useProjectStore((s) => s.projectName);
  const info = useUserInfo().data;
  const acting = actingTenant(info);

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
        {acting && <SwitchedTenantBanner tenant={acting} supportAccessUntil={info?.supportAccessUntil ?? null} />}
        {hospitalName && (
          <span className="header-org">
            {hospitalName}
            {departmentName && <span className="header-dept">-{departmentName}</span>}
          </span>
        )}
        {showProject && <NotificationBell />}
        <UserMenu />
      </div>
    </Layout.Header>
  );
}

/**
 * Whose tenant a switched system administrator is in, and what it may do there: with the tenant's support access
 * (until when) the patient data is open to it; without, the patient data is masked and read-only.
 */
function SwitchedTenantBanner({ tenant, supportAccessUntil }: { tenant: string; supportAccessUntil: string | null }) {
  return (
    <span className="header-tenant" role="status" aria-label="租户提示">
      <Tag color="orange" title="系统管理员已切换到该租户">
        当前租户：{tenant}
      </Tag>
      {supportAccessUntil ? (
        <Tag color="green" title="该租户管理员授予的支持访问，患者数据可查看和修改（均记入操作日志）">
          支持访问至 {formatTime(supportAccessUntil)}
        </Tag>
      ) : (
        <Tag title="未获该租户管理员授予支持访问：可配置表单、查看项目设置，患者数据脱敏只读">患者数据脱敏只读</Tag>
      )}
    </span>
  );
}
