/**
 * The route table of seed §2 as data. The router, the guards and the lazy pages are built from it
 * (`src/app/router.tsx`); the home page lists it. `ready: false` pages show the "under construction" state until the
 * issue that builds them lands.
 */
import { PERMISSIONS as P, type PermissionCode } from '@registry/shared/permissions';

export type LayoutName = 'none' | 'person' | 'main';

export type RouteEntry = {
  path: string;
  /** Chinese page name (document title, placeholder text). */
  title: string;
  layout: LayoutName;
  ready: boolean;
  /** The page opens only for holders of one of these codes; others see the 403 result. */
  permissions?: readonly PermissionCode[];
};

export const ROUTES: readonly RouteEntry[] = [
  { path: '/login', title: '登录', layout: 'none', ready: true },
  { path: '/404', title: '页面不存在', layout: 'none', ready: true },

  { path: '/person/project', title: '项目列表', layout: 'person', ready: true },
  {
    path: '/person/project-manage',
    title: '项目管理',
    layout: 'person',
    ready: true,
    permissions: [P.projectManage, P.projectCreate, P.tenantManage],
  },
  {
    path: '/person/sub-project-manage',
    title: '子项目管理',
    layout: 'person',
    ready: true,
    permissions: [P.projectManage, P.projectCreate],
  },
  { path: '/person/equity', title: '我的权益', layout: 'person', ready: false },
  { path: '/person/order', title: '我的订单', layout: 'person', ready: false },
  {
    path: '/manage/database',
    title: '数据库',
    layout: 'person',
    ready: true,
    permissions: [P.databaseConfig],
  },
  {
    path: '/manage/database/sub',
    title: '子项目数据库',
    layout: 'person',
    ready: true,
    permissions: [P.databaseConfig],
  },
  {
    path: '/manage/database/followup',
    title: '随访数据库',
    layout: 'person',
    ready: true,
    permissions: [P.databaseConfig],
  },
  {
    path: '/manage/database/followup/sub',
    title: '子项目随访数据库',
    layout: 'person',
    ready: true,
    permissions: [P.databaseConfig],
  },
  {
    path: '/manage/database/config',
    title: '数据库配置',
    layout: 'person',
    ready: true,
    permissions: [P.databaseConfig],
  },
  {
    path: '/manage/database/config/sub',
    title: '子项目数据库配置',
    layout: 'person',
    ready: true,
    permissions: [P.databaseConfig],
  },
  {
    path: '/manage/followup',
    title: '随访管理',
    layout: 'person',
    ready: true,
    permissions: [P.followupConfig],
  },
  {
    path: '/manage/fix-followup-plan',
    title: '固定随访计划',
    layout: 'person',
    ready: true,
    permissions: [P.followupConfig],
  },
  {
    path: '/manage/followup/config',
    title: '随访配置',
    layout: 'person',
    ready: true,
    permissions: [P.followupConfig],
  },
  {
    path: '/manage/permissions',
    title: '权限管理',
    layout: 'person',
    ready: true,
    permissions: [P.permissionManage, P.auditView],
  },
  {
    path: '/manage/sub-center',
    title: '分中心管理',
    layout: 'person',
    ready: true,
    permissions: [P.centerManage],
  },
  { path: '/manage/random', title: '随机分组', layout: 'person', ready: false },
  { path: '/manage/random/view', title: '随机分组查看', layout: 'person', ready: false },

  { path: '/home', title: '首页', layout: 'main', ready: true },
  { path: '/patient/list', title: '患者列表', layout: 'main', ready: true, permissions: [P.patientList] },
  { path: '/patient/add', title: '新增患者', layout: 'main', ready: true, permissions: [P.patientAdd] },
  { path: '/patient/edit', title: '编辑患者', layout: 'main', ready: true, permissions: [P.patientList] },
  { path: '/patient/file', title: '患者档案', layout: 'main', ready: true, permissions: [P.patientList] },
  { path: '/patient/source', title: '数据溯源', layout: 'main', ready: true, permissions: [P.patientList] },
  // Beyond the seed's table (issue 12): the open-queries list, under the patient area.
  { path: '/patient/query', title: '质疑管理', layout: 'main', ready: true, permissions: [P.patientList] },
  { path: '/retrieval', title: '数据检索', layout: 'main', ready: false },
  { path: '/retrieval/export', title: '数据导出', layout: 'main', ready: false },
  { path: '/analysis', title: '统计分析', layout: 'main', ready: false },
  { path: '/discern/list', title: 'AI识别列表', layout: 'main', ready: false },
  { path: '/discern/view', title: 'AI识别详情', layout: 'main', ready: false },
  { path: '/followup/list', title: '随访列表', layout: 'main', ready: true, permissions: [P.followupList] },
  { path: '/followup/edit', title: '随访详情', layout: 'main', ready: true, permissions: [P.followupList] },
  { path: '/multicenter/overview', title: '多中心概览', layout: 'main', ready: false },
  { path: '/multicenter/patient', title: '多中心患者', layout: 'main', ready: false },
  { path: '/multicenter/followup', title: '多中心随访', layout: 'main', ready: false },
];

/** Paths that redirect (seed §2). */
export const REDIRECTS: Readonly<Record<string, string>> = {
  '/': '/person/project',
  '/person': '/person/project',
};

export const NOT_FOUND_PATH = '/404';

export function routeTitle(pathname: string): string | undefined {
  return ROUTES.find((route) => route.path === pathname)?.title;
}
