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
  /** Source data verification of data points, and marking a submitted form verified (monitors). */
  patientSdv: 'patient.sdv',
  /** Lock and unlock forms (data manager, PI): a locked form refuses every change. */
  patientLock: 'patient.lock',
  /** Raise and close queries on data points (monitors); anyone with patient.edit may answer. */
  patientQuery: 'patient.query',
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
  /** Tenant level: disable and enable the tenant's accounts (tenant_admin, sys_admin). */
  userManage: 'user.manage',
  /** sys tenant only: list tenants, create a hospital tenant with its first administrator. */
  tenantManage: 'tenant.manage',
  /**
   * Tenant level (the tenant's own administrator): grant and revoke time-limited support access, which lets the system
   * administrators see and change the tenant's patient data unmasked.
   */
  supportGrant: 'support.grant',
} as const;

export type PermissionCode = (typeof PERMISSIONS)[keyof typeof PERMISSIONS];

export const ALL_PERMISSIONS: readonly PermissionCode[] = Object.values(PERMISSIONS);

/** True when the user holds at least one of the required codes (the gate's rule, seed §5). */
export function hasAnyPermission(held: readonly string[], required: readonly string[]): boolean {
  return required.some((code) => held.includes(code));
}

/** The codes a project role (built-in or custom) may hold: what `/manage/permissions` offers when a role is edited. */
export const PROJECT_PERMISSION_CODES = [
  PERMISSIONS.home,
  PERMISSIONS.patientList,
  PERMISSIONS.patientAdd,
  PERMISSIONS.patientEdit,
  PERMISSIONS.patientDelete,
  PERMISSIONS.patientExport,
  PERMISSIONS.patientPii,
  PERMISSIONS.patientSdv,
  PERMISSIONS.patientLock,
  PERMISSIONS.patientQuery,
  PERMISSIONS.databaseConfig,
  PERMISSIONS.followupList,
  PERMISSIONS.followupEdit,
  PERMISSIONS.followupConfig,
  PERMISSIONS.discernList,
  PERMISSIONS.discernEdit,
  PERMISSIONS.retrievalQuery,
  PERMISSIONS.retrievalExport,
  PERMISSIONS.analysisView,
  PERMISSIONS.randomAssign,
  PERMISSIONS.randomUnblind,
  PERMISSIONS.randomConfig,
  PERMISSIONS.multicenterView,
  PERMISSIONS.permissionManage,
  PERMISSIONS.centerManage,
  PERMISSIONS.auditView,
] as const satisfies readonly PermissionCode[];
export type ProjectPermissionCode = (typeof PROJECT_PERMISSION_CODES)[number];

/** Chinese labels of the project permission codes (the role editor's checkboxes). */
export const PROJECT_PERMISSION_LABELS: Record<ProjectPermissionCode, string> = {
  'home.view': '首页',
  'patient.list': '查看患者',
  'patient.add': '新增患者',
  'patient.edit': '编辑患者',
  'patient.delete': '删除患者',
  'patient.export': '导出患者',
  'patient.pii': '查看患者身份信息',
  'patient.sdv': '源数据核查',
  'patient.lock': '锁定表单',
  'patient.query': '发起与关闭质疑',
  'database.config': '数据库设计',
  'followup.list': '查看随访',
  'followup.edit': '执行随访',
  'followup.config': '随访配置',
  'discern.list': '查看AI识别',
  'discern.edit': '确认AI识别',
  'retrieval.query': '数据检索',
  'retrieval.export': '数据导出',
  'analysis.view': '统计分析',
  'random.assign': '随机分组',
  'random.unblind': '揭盲',
  'random.config': '随机方案配置',
  'multicenter.view': '多中心视图',
  'permission.manage': '成员与权限管理',
  'center.manage': '分中心管理',
  'audit.view': '操作日志',
};

/**
 * A system administrator switched into another tenant (切换租户) keeps only these tenant codes there: the system
 * tenant's own powers (switch tenant, tenant list) and the project list. Creating or managing the tenant's projects and
 * accounts is its own administrator's.
 */
export const SWITCHED_TENANT_PERMISSIONS: readonly PermissionCode[] = [
  PERMISSIONS.sysList,
  PERMISSIONS.sysTenant,
  PERMISSIONS.tenantManage,
  PERMISSIONS.projectList,
];

/**
 * What a switched system administrator holds in a project of that tenant without support access: configure forms
 * (配置表单, with the option dictionaries), see the set-up read-only (centers, roles, follow-up plans) and see patient
 * data masked and read-only (list, detail, CRF values, follow-up worklist and timeline). No `patient.pii`, no write,
 * no export or import. With the tenant's support access the project owner's codes apply.
 */
export const SWITCHED_PROJECT_PERMISSIONS: readonly PermissionCode[] = [
  PERMISSIONS.home,
  PERMISSIONS.patientList,
  PERMISSIONS.followupList,
  PERMISSIONS.databaseConfig,
];

/** Support access lasts 1 to 72 hours (then it ends by itself; the tenant's administrator may revoke it earlier). */
export const SUPPORT_ACCESS_HOURS = { min: 1, max: 72 } as const;
