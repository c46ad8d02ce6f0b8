/**
 * Permission codes. The server grants them through roles; the web hides what a user lacks.
 * Codes are shaped like 'area.action' (seed §3: 'sys.list').
 */
export const PERMISSIONS = {
  sysList: 'sys.list',
  sysTenant: 'sys.tenant',
  projectList: 'project.list',
  projectCreate: 'project.create',
  projectManage: 'project.manage',
  equityView: 'equity.view',
  orderView: 'order.view',
  home: 'home.view',
  patientList: 'patient.list',
  patientAdd: 'patient.add',
  patientEdit: 'patient.edit',
  patientDelete: 'patient.delete',
  patientExport: 'patient.export',
  patientPii: 'patient.pii',
  databaseConfig: 'database.config',
  followupList: 'followup.list',
  followupEdit: 'followup.edit',
  followupConfig: 'followup.config',
  discernList: 'discern.list',
  discernEdit: 'discern.edit',
  retrievalQuery: 'retrieval.query',
  retrievalExport: 'retrieval.export',
  analysisView: 'analysis.view',
  randomAssign: 'random.assign',
  randomUnblind: 'random.unblind',
  randomConfig: 'random.config',
  multicenterView: 'multicenter.view',
  permissionManage: 'permission.manage',
  centerManage: 'center.manage',
  auditView: 'audit.view',
} as const;

export type PermissionCode = (typeof PERMISSIONS)[keyof typeof PERMISSIONS];

export const ALL_PERMISSIONS: readonly PermissionCode[] = Object.values(PERMISSIONS);

/** True when the user holds at least one of the required codes (the gate's rule, seed §5). */
export function hasAnyPermission(held: readonly string[], required: readonly string[]): boolean {
  return required.some((code) => held.includes(code));
}
