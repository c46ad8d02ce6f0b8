import { useEffect, type ReactNode } from 'react';
import { Button, Spin } from 'antd';
import { LazyResult } from '../components/lazy-result/lazy-result';
import { useNavigate, useSearchParams } from 'react-router';
import { MENU_GROUPS } from '@registry/shared/constants';
import { useMenu } from '../features/menu/api/get-menu';
import { hasAnyPermission } from '@registry/shared/permissions';
import { useEnsureCurrentProject } from '../lib/project-scope';
import { useMenuStore } from '../lib/stores/menu-store';
import { useProjectStore } from '../lib/stores/project-store';

export const FORBIDDEN_TITLE = '无权限访问该页面';

/** The 403 state of a page the user may not open. */
export function ForbiddenResult() {
  const navigate = useNavigate();
  return (
    <LazyResult
      status="403"
      title={FORBIDDEN_TITLE}
      subTitle="您在当前项目中的角色没有此页面的权限，如需访问请联系项目负责人。"
      extra={
        <Button type="primary" onClick={() => navigate('/person/project')}>
          返回项目列表
        </Button>
      }
    />
  );
}

/**
 * Renders a page only when the user holds one of `codes`, judged on the menu answers — the personal group (tenant
 * codes) and, with a project selected, the project group (that project's codes) — and the stored permissions; a 403
 * result otherwise.
 */
export function RequirePermission({ codes, children }: { codes: readonly string[]; children: ReactNode }) {
  const storedProjectId = useProjectStore((s) => s.projectId);
  const hasProject = Boolean(storedProjectId);
  // A page opened for another project (the header's 配置表单: `?projectId=`) switches project first; judging it on
  // the previously stored project would be wrong. The server checks every call of the page, and once the page has
  // switched (and dropped the parameter) this gate judges the new project's permissions.
  const [params] = useSearchParams();
  const wantedProjectId = params.get('projectId');
  const switching = Boolean(wantedProjectId && wantedProjectId !== storedProjectId);
  const menu = useMenu(MENU_GROUPS.person);
  // The project's permissions are the session's current project's: make the stored project current first (a new
  // sign-in starts without one, and a page opened by its address has not passed through 进入项目).
  const ensured = useEnsureCurrentProject(storedProjectId, !switching);
  const projectReady = hasProject && (switching || !ensured.isPending);
  const projectMenu = useMenu(MENU_GROUPS.project, projectReady);
  const stored = useMenuStore((s) => s.permissions);
  const setProjectMenu = useMenuStore((s) => s.setProjectMenu);
  const personCodes = menu.data?.permissions;
  const project = projectMenu.data;

  // The page's own gates (<Permission>) read the store: keep it in step with the project's current answer.
  useEffect(() => {
    if (project && personCodes) setProjectMenu(project.menus, [...project.permissions, ...personCodes]);
  }, [project, personCodes, setProjectMenu]);

  if (menu.isPending || (hasProject && (!projectReady || projectMenu.isPending))) {
    return (
      <div style={{ padding: 48, textAlign: 'center' }}>
        <Spin tip="加载中…" size="large">
          <div style={{ minHeight: 80 }} />
        </Spin>
      </div>
    );
  }
  if (switching) return <>{children}</>;
  const held = [...stored, ...(menu.data?.permissions ?? []), ...(projectMenu.data?.permissions ?? [])];
  if (hasAnyPermission(held, codes)) return <>{children}</>;
  // A project's page opened before any project is chosen (a bookmark, an address typed after signing in): the codes
  // it needs are a project role's, so the way in is choosing a project, not asking for a permission.
  return hasProject ? <ForbiddenResult /> : <NoProjectResult />;
}

export const NO_PROJECT_TITLE = '尚未选择项目';

/** A project's page without a chosen project. */
export function NoProjectResult() {
  const navigate = useNavigate();
  return (
    <LazyResult
      status="info"
      title={NO_PROJECT_TITLE}
      subTitle="该页面属于具体项目，请先在项目列表中选择要进入的项目。"
      extra={
        <Button type="primary" onClick={() => navigate('/person/project')}>
          选择项目
        </Button>
      }
    />
  );
}
