import type { ComponentType } from 'react';
import { createBrowserRouter, redirect, type RouteObject } from 'react-router';
import { NOT_FOUND_PATH, REDIRECTS, ROUTES, type LayoutName, type RouteEntry } from '../config/routes';
import { guardLoader } from '../lib/guard';
import { Root, RootErrorBoundary, RootFallback } from './root';

/** Element of the redirect-only routes (their loader always redirects). */
function Empty() {
  return null;
}

type LazyPage = () => Promise<ComponentType>;

/** The pages this issue builds; every other route of the table renders the "under construction" state. */
const PAGES: Readonly<Record<string, LazyPage>> = {
  '/login': () => import('../features/auth/components/login-page').then((m) => m.LoginPage),
  '/404': () => import('../components/not-found-page').then((m) => m.NotFoundPage),
  '/person/project': () => import('../features/project/components/project-list-page').then((m) => m.ProjectListPage),
  '/home': () => import('../features/project/components/home-page').then((m) => m.HomePage),
  '/person/project-manage': () => import('./pages/project-manage').then((m) => m.ProjectManageRoute),
  '/person/sub-project-manage': () =>
    import('../features/project/components/sub-project-manage-page').then((m) => m.SubProjectManagePage),
  '/manage/sub-center': () => import('../features/center/components/center-page').then((m) => m.CenterPage),
  '/manage/permissions': () => import('./pages/permissions').then((m) => m.PermissionsRoute),
  '/manage/database': () => import('../features/database/components/designer-page').then((m) => m.DatabasePage),
  '/manage/database/sub': () => import('../features/database/components/designer-page').then((m) => m.DatabasePage),
  '/manage/database/followup': () =>
    import('../features/database/components/designer-page').then((m) => m.FollowupDatabasePage),
  '/manage/database/followup/sub': () =>
    import('../features/database/components/designer-page').then((m) => m.FollowupDatabasePage),
  '/manage/database/config': () => import('./pages/database-config').then((m) => m.DatabaseConfigRoute),
  '/manage/database/config/sub': () => import('./pages/database-config').then((m) => m.DatabaseConfigRoute),
  '/manage/followup': () =>
    import('../features/followup/plan/components/plan-list-page').then((m) => m.FollowupPlanListPage),
  '/manage/followup/config': () =>
    import('../features/followup/plan/components/plan-editor-pages').then((m) => m.RelativePlanPage),
  '/manage/fix-followup-plan': () =>
    import('../features/followup/plan/components/plan-editor-pages').then((m) => m.FixedPlanPage),
  '/patient/list': () => import('../features/patient/components/patient-list-page').then((m) => m.PatientListPage),
  '/patient/add': () => import('../features/patient/components/patient-add-page').then((m) => m.PatientAddPage),
  '/patient/edit': () =>
    import('../features/patient-record/components/patient-edit-page').then((m) => m.PatientEditPage),
  '/patient/file': () =>
    import('../features/patient-record/components/patient-file-page').then((m) => m.PatientFilePage),
  '/patient/source': () => import('../features/patient-record/components/source-page').then((m) => m.SourcePage),
  '/patient/query': () => import('../features/query/components/query-list-page').then((m) => m.QueryListPage),
  '/retrieval': () => import('../features/retrieval/retrieval-page').then((m) => m.RetrievalPage),
  '/retrieval/export': () => import('../features/retrieval/export/components/export-page').then((m) => m.ExportPage),
  '/followup/list': () => import('../features/followup/components/followup-list-page').then((m) => m.FollowupListPage),
  '/followup/edit': () => import('../features/followup/components/followup-edit-page').then((m) => m.FollowupEditPage),
};

const LAYOUTS: Readonly<Record<Exclude<LayoutName, 'none'>, LazyPage>> = {
  person: () => import('./layouts/person-layout').then((m) => m.PersonLayout),
  main: () => import('./layouts/main-layout').then((m) => m.MainLayout),
};

function pageRoute(entry: RouteEntry): RouteObject {
  const page = PAGES[entry.path];
  const codes = entry.permissions;
  if (page && codes) {
    return {
      path: entry.path,
      lazy: async () => {
        const [Page, { RequirePermission }] = await Promise.all([page(), import('./require-permission')]);
        return {
          Component: () => (
            <RequirePermission codes={codes}>
              <Page />
            </RequirePermission>
          ),
        };
      },
    };
  }
  if (page) return { path: entry.path, lazy: async () => ({ Component: await page() }) };
  return {
    path: entry.path,
    lazy: async () => {
      const { UnderConstruction } = await import('../components/under-construction');
      return { Component: () => <UnderConstruction title={entry.title} /> };
    },
  };
}

/** Builds the route objects from the route table (seed §2). */
export function buildRoutes(): RouteObject[] {
  const byLayout = (layout: LayoutName) => ROUTES.filter((r) => r.layout === layout).map(pageRoute);
  return [
    {
      id: 'root',
      path: '/',
      Component: Root,
      HydrateFallback: RootFallback,
      ErrorBoundary: RootErrorBoundary,
      loader: guardLoader,
      // The guard (version check, token check) runs on every navigation, not only when the root first matches.
      shouldRevalidate: () => true,
      children: [
        ...Object.entries(REDIRECTS).map(([from, to]): RouteObject =>
          from === '/'
            ? { index: true, loader: () => redirect(to), Component: Empty }
            : { path: from, loader: () => redirect(to), Component: Empty },
        ),
        ...byLayout('none'),
        {
          id: 'person-layout',
          lazy: async () => ({ Component: await LAYOUTS.person() }),
          children: byLayout('person'),
        },
        {
          id: 'main-layout',
          lazy: async () => ({ Component: await LAYOUTS.main() }),
          children: byLayout('main'),
        },
        { path: '*', loader: () => redirect(NOT_FOUND_PATH), Component: Empty },
      ],
    },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(buildRoutes());
}
