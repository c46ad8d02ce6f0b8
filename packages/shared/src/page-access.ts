import { PERMISSIONS as P, type PermissionCode } from './permissions';

/**
 * Who may open a page: `'public'` (no sign-in), `'signed-in'` (any signed-in user; the page's calls are checked by the
 * server), or the permission codes of which the user must hold at least one (`hasAnyPermission`; others see the 403).
 */
export type PageAccess = 'public' | 'signed-in' | readonly PermissionCode[];

/**
 * THE declaration of page access, one row per route of seed §2 (and the routes beyond it). Everything else derives
 * from it: the web's route table (`apps/web/src/config/routes.ts`: the 403 gate of each page), the navigation guard
 * (only public pages open without a token: seed §2, "any path other than /login without a stored access token
 * redirects to /login") and the menu (`menu.ts`: an item is shown to holders of one of its page's codes).
 *
 * Not-yet-built pages carry their menu's code, so the gate is in place when they are built.
 */
export const PAGE_ACCESS = {
  '/login': 'public',
  '/404': 'signed-in',

  // The landing page: `/` and `/person` redirect here, as do 切换项目, a tenant switch and the 403 page's button.
  '/person/project': 'signed-in',
  '/person/project-manage': [P.projectManage, P.projectCreate, P.tenantManage],
  '/person/sub-project-manage': [P.projectManage, P.projectCreate],
  '/person/equity': [P.equityView],
  '/person/order': [P.orderView],
  '/manage/database': [P.databaseConfig],
  '/manage/database/sub': [P.databaseConfig],
  '/manage/database/followup': [P.databaseConfig],
  '/manage/database/followup/sub': [P.databaseConfig],
  '/manage/database/config': [P.databaseConfig],
  '/manage/database/config/sub': [P.databaseConfig],
  '/manage/followup': [P.followupConfig],
  '/manage/fix-followup-plan': [P.followupConfig],
  '/manage/followup/config': [P.followupConfig],
  '/manage/permissions': [P.permissionManage, P.auditView],
  '/manage/sub-center': [P.centerManage],
  '/manage/random': [P.randomConfig],
  '/manage/random/view': [P.randomConfig],

  // A project's first page (进入项目 opens it): every project role holds home.view; without a project the gate asks
  // for one (尚未选择项目, require-permission.tsx).
  '/home': [P.home],
  '/patient/list': [P.patientList],
  '/patient/add': [P.patientAdd],
  '/patient/edit': [P.patientList],
  '/patient/file': [P.patientList],
  '/patient/source': [P.patientList],
  // Beyond the seed's table: the open-queries list, under the patient area.
  '/patient/query': [P.patientList],
  '/retrieval': [P.retrievalQuery],
  '/retrieval/export': [P.retrievalExport],
  '/analysis': [P.analysisView],
  '/discern/list': [P.discernList],
  '/discern/view': [P.discernList],
  '/followup/list': [P.followupList],
  '/followup/edit': [P.followupList],
  '/multicenter/overview': [P.multicenterView],
  '/multicenter/patient': [P.multicenterView],
  '/multicenter/followup': [P.multicenterView],
} as const satisfies Record<string, PageAccess>;

export type PagePath = keyof typeof PAGE_ACCESS;

/** The access of a path (without query), undefined for a path that is no page. */
export function pageAccess(pathname: string): PageAccess | undefined {
  return Object.hasOwn(PAGE_ACCESS, pathname) ? PAGE_ACCESS[pathname as PagePath] : undefined;
}

/** True for the pages that open without a signed-in user (only /login); unknown paths are not public. */
export function isPublicPage(pathname: string): boolean {
  return pageAccess(pathname) === 'public';
}

/** The codes of which a user must hold one to open the page; undefined when no code is needed. */
export function pagePermissions(pathname: string): readonly PermissionCode[] | undefined {
  const access = pageAccess(pathname);
  return typeof access === 'string' ? undefined : access;
}

/**
 * The one code a menu row of this link holds (the menu table has one permission per item): `code` when the item names
 * one — it must be one of the page's, e.g. 操作日志 (`/manage/permissions?tab=audit`) is shown by `audit.view` —, else
 * the page's first code; null (any signed-in user) for a page that needs none. Throws for a link to no page, or a code
 * the page does not accept: a menu item cannot declare access of its own.
 */
export function menuPermission(href: string, code?: PermissionCode): PermissionCode | null {
  const pathname = href.split('?')[0] ?? href;
  const access = pageAccess(pathname);
  if (access === undefined) throw new Error(`menu link ${href} is not a page of PAGE_ACCESS`);
  if (typeof access === 'string') {
    if (code !== undefined) throw new Error(`menu link ${href}: the page needs no permission, not ${code}`);
    return null;
  }
  if (code === undefined) return access[0] ?? null;
  if (!access.includes(code)) throw new Error(`menu link ${href}: ${code} is not one of the page's codes`);
  return code;
}
