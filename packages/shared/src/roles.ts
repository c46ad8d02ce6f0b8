import { PERMISSIONS as P, type PermissionCode } from './permissions';

/** Built-in roles (product.md, "Who uses it"): a named set of permission codes. */
export type RoleDefinition = {
  code: string;
  name: string;
  scope: 'tenant' | 'project';
  permissions: readonly PermissionCode[];
};

const personal: PermissionCode[] = [
  P.projectList,
  P.projectCreate,
  P.projectManage,
  P.equityView,
  P.orderView,
  P.supportGrant,
];
const tenantAdmin: PermissionCode[] = [...personal, P.userManage];

const allProject: PermissionCode[] = [
  P.home,
  P.patientList,
  P.patientAdd,
  P.patientEdit,
  P.patientDelete,
  P.patientExport,
  P.patientPii,
  P.patientSdv,
  P.patientLock,
  P.patientQuery,
  P.databaseConfig,
  P.followupList,
  P.followupEdit,
  P.followupConfig,
  P.discernList,
  P.discernEdit,
  P.retrievalQuery,
  P.retrievalExport,
  P.analysisView,
  P.randomAssign,
  P.randomUnblind,
  P.randomConfig,
  P.multicenterView,
  P.permissionManage,
  P.centerManage,
  P.auditView,
];

export const BUILT_IN_ROLES = {
  sysAdmin: {
    code: 'sys_admin',
    name: '系统管理员',
    scope: 'tenant',
    permissions: [P.sysList, P.sysTenant, P.tenantManage, ...tenantAdmin],
  },
  tenantAdmin: { code: 'tenant_admin', name: '机构管理员', scope: 'tenant', permissions: tenantAdmin },
  tenantMember: {
    code: 'tenant_member',
    name: '机构成员',
    scope: 'tenant',
    permissions: [P.projectList, P.equityView, P.orderView],
  },
  personal: { code: 'personal_user', name: '个人用户', scope: 'tenant', permissions: personal },
  projectOwner: { code: 'project_owner', name: '项目负责人', scope: 'project', permissions: allProject },
  centerLead: {
    code: 'center_lead',
    name: '分中心负责人',
    scope: 'project',
    permissions: [
      P.home,
      P.patientList,
      P.patientAdd,
      P.patientEdit,
      P.patientDelete,
      P.patientExport,
      P.patientPii,
      P.followupList,
      P.followupEdit,
      P.discernList,
      P.discernEdit,
      P.retrievalQuery,
      P.analysisView,
      P.randomAssign,
      P.multicenterView,
      P.centerManage,
      /** Members of their own center only (the center rule), never roles above their own. */
      P.permissionManage,
    ],
  },
  dataEntry: {
    code: 'data_entry',
    name: '数据录入员',
    scope: 'project',
    permissions: [P.home, P.patientList, P.patientAdd, P.patientEdit, P.patientPii, P.discernList, P.discernEdit],
  },
  followupNurse: {
    code: 'followup_nurse',
    name: '随访护士',
    scope: 'project',
    permissions: [P.home, P.patientList, P.patientPii, P.followupList, P.followupEdit],
  },
  monitor: {
    code: 'monitor',
    name: '监查员',
    scope: 'project',
    permissions: [
      P.home,
      P.patientList,
      P.patientPii,
      P.patientSdv,
      P.patientQuery,
      P.followupList,
      P.discernList,
      P.multicenterView,
      P.auditView,
    ],
  },
  statistician: {
    code: 'statistician',
    name: '统计师',
    scope: 'project',
    permissions: [P.home, P.retrievalQuery, P.retrievalExport, P.analysisView],
  },
  viewer: { code: 'viewer', name: '只读成员', scope: 'project', permissions: [P.home, P.patientList] },
} as const satisfies Record<string, RoleDefinition>;
