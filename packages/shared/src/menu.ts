import { MENU_GROUPS } from './constants';
import { menuPermission } from './page-access';
import { PERMISSIONS as P, type PermissionCode } from './permissions';

/**
 * One row of the server's menu table (seeded from these definitions). `permission` null = any signed-in user. A link's
 * permission is its page's, from `PAGE_ACCESS` (`page-access.ts`): the menu declares no access of its own.
 */
export type MenuDefinition = {
  id: string;
  groupCode: string;
  parentId: string | null;
  type: '1' | '2';
  name: string;
  icon: string | null;
  href: string | null;
  sort: number;
  showFlag: boolean;
  permission: PermissionCode | null;
};

const item = (
  groupCode: string,
  id: string,
  name: string,
  href: string | null,
  icon: string | null,
  sort: number,
  parentId: string | null = null,
  /** Which of the page's codes shows the item, when not its first (the menu row holds one code). */
  code?: PermissionCode,
): MenuDefinition => ({
  id,
  groupCode,
  parentId,
  type: href === null ? '1' : '2',
  name,
  icon,
  href,
  sort,
  showFlag: true,
  permission: href === null ? null : menuPermission(href, code),
});

const person = MENU_GROUPS.person;
const project = MENU_GROUPS.project;

/** The personal layout (`index`) and the main project layout (`project`) menus, in display order. */
const DEFINITIONS: readonly MenuDefinition[] = [
  item(person, 'person-project', '项目列表', '/person/project', 'AppstoreOutlined', 10),
  item(person, 'person-project-manage', '项目管理', '/person/project-manage', 'ProjectOutlined', 20),
  item(person, 'person-sub-project-manage', '子项目管理', '/person/sub-project-manage', 'PartitionOutlined', 30),
  item(person, 'person-equity', '我的权益', '/person/equity', 'GiftOutlined', 40),
  item(person, 'person-order', '我的订单', '/person/order', 'ShoppingOutlined', 50),
  item(person, 'manage', '项目配置', null, 'SettingOutlined', 60),
  item(person, 'manage-database', '数据库设计', '/manage/database', 'DatabaseOutlined', 10, 'manage'),
  item(
    person,
    'manage-database-followup',
    '随访数据库',
    '/manage/database/followup',
    'FileSearchOutlined',
    20,
    'manage',
  ),
  item(person, 'manage-database-config', '数据库配置', '/manage/database/config', 'ControlOutlined', 30, 'manage'),
  item(person, 'manage-followup', '随访管理', '/manage/followup', 'CalendarOutlined', 40, 'manage'),
  item(
    person,
    'manage-fix-followup-plan',
    '固定随访计划',
    '/manage/fix-followup-plan',
    'ScheduleOutlined',
    50,
    'manage',
  ),
  item(person, 'manage-followup-config', '随访配置', '/manage/followup/config', 'ToolOutlined', 60, 'manage'),
  item(person, 'manage-permissions', '权限管理', '/manage/permissions', 'SafetyCertificateOutlined', 70, 'manage'),
  item(person, 'manage-sub-center', '分中心管理', '/manage/sub-center', 'ClusterOutlined', 80, 'manage'),
  item(person, 'manage-audit', '操作日志', '/manage/permissions?tab=audit', 'AuditOutlined', 85, 'manage', P.auditView),
  item(person, 'manage-random', '随机分组', '/manage/random', 'InteractionOutlined', 90, 'manage'),

  item(project, 'home', '首页', '/home', 'HomeOutlined', 10),
  item(project, 'patient', '患者管理', null, 'TeamOutlined', 20),
  item(project, 'patient-list', '患者列表', '/patient/list', 'UnorderedListOutlined', 10, 'patient'),
  item(project, 'patient-add', '新增患者', '/patient/add', 'UserAddOutlined', 20, 'patient'),
  // the open-queries list (the seed fixes no route for it; it belongs with the patient data)
  item(project, 'patient-query', '质疑管理', '/patient/query', 'QuestionCircleOutlined', 30, 'patient'),
  item(project, 'retrieval', '数据检索', null, 'SearchOutlined', 30),
  item(project, 'retrieval-query', '数据检索', '/retrieval', 'FileSearchOutlined', 10, 'retrieval'),
  item(project, 'retrieval-export', '数据导出', '/retrieval/export', 'ExportOutlined', 20, 'retrieval'),
  item(project, 'analysis', '统计分析', '/analysis', 'BarChartOutlined', 40),
  item(project, 'discern', 'AI识别', '/discern/list', 'ScanOutlined', 50),
  item(project, 'followup', '随访管理', '/followup/list', 'PhoneOutlined', 60),
  item(project, 'multicenter', '多中心', null, 'ApartmentOutlined', 70),
  item(project, 'multicenter-overview', '中心概览', '/multicenter/overview', 'DashboardOutlined', 10, 'multicenter'),
  item(project, 'multicenter-patient', '中心患者', '/multicenter/patient', 'TeamOutlined', 20, 'multicenter'),
  item(
    project,
    'multicenter-followup',
    '中心随访',
    '/multicenter/followup',
    'ReconciliationOutlined',
    30,
    'multicenter',
  ),
];

/**
 * The project configuration group (项目配置: database, follow-up plans, permissions, centers …) again at the end of the
 * main project menu, so an owner reaches the configuration of the project they are in without 切换项目; the same
 * routes, shown by the same project permissions (`database.config`, `followup.config`, `permission.manage` …).
 */
const PROJECT_CONFIG: readonly MenuDefinition[] = DEFINITIONS.filter(
  (m) => m.id === 'manage' || m.parentId === 'manage',
).map((m) => ({
  ...m,
  groupCode: project,
  id: `project-${m.id}`,
  parentId: m.parentId === null ? null : `project-${m.parentId}`,
  sort: m.parentId === null ? 80 : m.sort,
}));

export const MENU_DEFINITIONS: readonly MenuDefinition[] = [...DEFINITIONS, ...PROJECT_CONFIG];
