import { AuditTab } from '../../features/audit/components/audit-tab';
import { PermissionsPage } from '../../features/member/components/permissions-page';

/** `/manage/permissions`: the member feature's page with the audit feature's 操作日志 tab. */
export function PermissionsRoute() {
  return <PermissionsPage auditTab={<AuditTab />} />;
}
