import { canManageJobs, JobPanel } from '../../features/jobs/components/job-panel';
import { ProjectManagePage } from '../../features/project/components/project-manage-page';
import { canGrantSupport, SupportAccessPanel } from '../../features/support-access/components/support-access-panel';
import { canManageTenants, TenantPanel } from '../../features/tenant/components/tenant-panel';
import { useUserInfo } from '../../api/user-info';
import { useMenuStore } from '../../lib/stores/menu-store';

/**
 * `/person/project-manage`: the project feature's page with the tenant feature's, the jobs feature's and the
 * support-access feature's tabs.
 */
export function ProjectManageRoute() {
  const user = useUserInfo();
  const held = useMenuStore((s) => s.permissions);
  return (
    <ProjectManagePage
      extraTabs={[
        ...(canManageTenants(held, user.data)
          ? [{ key: 'tenants', label: '租户管理', children: <TenantPanel /> }]
          : []),
        ...(canManageTenants(held, user.data) && canManageJobs(held)
          ? [{ key: 'jobs', label: '后台任务', children: <JobPanel /> }]
          : []),
        ...(canGrantSupport(held, user.data)
          ? [{ key: 'support', label: '支持访问', children: <SupportAccessPanel /> }]
          : []),
      ]}
    />
  );
}
