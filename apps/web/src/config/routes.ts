/**
 * The route table of seed §2 as data. The router, the guards and the lazy pages are built from it
 * (`src/app/router.tsx`); the home page lists it. `ready: false` pages show the "under construction" state until the
 * issue that builds them lands. Who may open each page is not declared here but in `PAGE_ACCESS`
 * (`@registry/shared/page-access`), the one table the server's menu is built from as well.
 */
import { PAGE_ACCESS, type PageAccess, type PagePath } from '@registry/shared/page-access';
import type { PermissionCode } from '@registry/shared/permissions';

export type LayoutName = 'none' | 'person' | 'main';

export type RouteEntry = {
  path: PagePath;
  /** Chinese page name (document title, placeholder text). */
  title: string;
  layout: LayoutName;
  ready: boolean;
  /** Who may open the page: `PAGE_ACCESS[path]`. */
  access: PageAccess;
  /** The page opens only for holders of one of these codes; others see the 403 result (from `access`). */
  permissions?: readonly PermissionCode[];
};

function route(path: PagePath, title: string, layout: LayoutName, ready: boolean): RouteEntry {
  const access = PAGE_ACCESS[path];
  return typeof access === 'string'
    ? { path, title, layout, ready, access }
    : { path, title, layout, ready, access, permissions: access };
}

export const ROUTES: readonly RouteEntry[] = [
  route('/login', '登录', 'none', true),
  route('/404', '页面不存在', 'none', true),

  route('/person/project', '项目列表', 'person', true),
  route('/person/project-manage', '项目管理', 'person', true),
  route('/person/sub-project-manage', '子项目管理', 'person', true),
  route('/person/equity', '我的权益', 'person', false),
  route('/person/order', '我的订单', 'person', false),
  route('/manage/database', '数据库', 'person', true),
  route('/manage/database/sub', '子项目数据库', 'person', true),
  route('/manage/database/followup', '随访数据库', 'person', true),
  route('/manage/database/followup/sub', '子项目随访数据库', 'person', true),
  route('/manage/database/config', '数据库配置', 'person', true),
  route('/manage/database/config/sub', '子项目数据库配置', 'person', true),
  route('/manage/followup', '随访管理', 'person', true),
  route('/manage/fix-followup-plan', '固定随访计划', 'person', true),
  route('/manage/followup/config', '随访配置', 'person', true),
  route('/manage/permissions', '权限管理', 'person', true),
  route('/manage/sub-center', '分中心管理', 'person', true),
  route('/manage/random', '随机分组', 'person', false),
  route('/manage/random/view', '随机分组查看', 'person', false),

  route('/home', '首页', 'main', true),
  route('/patient/list', '患者列表', 'main', true),
  route('/patient/add', '新增患者', 'main', true),
  route('/patient/edit', '编辑患者', 'main', true),
  route('/patient/file', '患者档案', 'main', true),
  route('/patient/source', '数据溯源', 'main', true),
  // Beyond the seed's table: the open-queries list, under the patient area.
  route('/patient/query', '质疑管理', 'main', true),
  route('/retrieval', '数据检索', 'main', true),
  route('/retrieval/export', '数据导出', 'main', true),
  route('/analysis', '统计分析', 'main', false),
  route('/discern/list', 'AI识别列表', 'main', false),
  route('/discern/view', 'AI识别详情', 'main', false),
  route('/followup/list', '随访列表', 'main', true),
  route('/followup/edit', '随访详情', 'main', true),
  route('/multicenter/overview', '多中心概览', 'main', false),
  route('/multicenter/patient', '多中心患者', 'main', false),
  route('/multicenter/followup', '多中心随访', 'main', false),
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
