import { PERMISSIONS } from '@registry/shared/permissions';
import type { Executor } from '../../db/client';
import { AppError, ERROR_MESSAGES } from '../../lib/errors';
import { switchedProjectPermissions } from '../../modules/auth/acting-permissions';
import type { AuthContext } from '../../modules/auth/session.service';
import { findMembershipRole, findRightsProject, findScopeProject } from './project-scope.repository';

/**
 * The scope of a call in the current project, from the session only: tenant, the current project, the project whose
 * centers, roles and members apply (the parent for a sub-project) and the member's center (null = all centers).
 */
export type ProjectScope = {
  tenantId: string;
  userId: string;
  projectId: string;
  /** The top-level project: a sub-project shares its parent's centers, roles and members. */
  rootProjectId: string;
  centerId: string | null;
  permissions: readonly string[];
};

/** The current project's scope, or 404 '请先选择项目' when the session has none (or it is no longer visible). */
export async function requireProjectScope(db: Executor, auth: AuthContext): Promise<ProjectScope> {
  if (!auth.projectId) throw new AppError(404, ERROR_MESSAGES.noCurrentProject);
  // The session lookup already found the project (one query per request); other contexts look it up.
  const [row] =
    auth.currentProject !== undefined
      ? auth.currentProject && auth.currentProject.id === auth.projectId
        ? [auth.currentProject]
        : []
      : await findScopeProject(db, auth.tenantId, auth.projectId);
  // A member removed since entering the project (no role left) is treated as having no current project.
  if (!row || auth.projectPermissions.length === 0) throw new AppError(404, ERROR_MESSAGES.noCurrentProject);
  return {
    tenantId: auth.tenantId,
    userId: auth.userId,
    projectId: row.id,
    rootProjectId: row.parentId ?? row.id,
    centerId: auth.centerId,
    permissions: auth.projectPermissions,
  };
}

/** THE center rule's SQL condition lives beside the queries: `centerCondition` in ./project-scope.repository. */

/** True when the scope spans all centers (may create centers, assign any center). */
export function spansAllCenters(scope: Pick<ProjectScope, 'centerId'>): boolean {
  return scope.centerId === null;
}

/** The caller's rights on one project of the acting tenant (not necessarily the current one). */
export type ProjectRights = {
  project: { id: string; code: string; name: string; parentId: string | null; ownerId: string; status: string };
  isOwner: boolean;
  isMember: boolean;
  /** The membership's center (null = all centers or no membership). */
  centerId: string | null;
  /** Project permissions the caller may grant (a switched system administrator: `switchedProjectPermissions`). */
  permissions: string[];
  /** Owner, a member holding `permission.manage`, a member with the tenant's `project.manage`, or sys acting here under support access. */
  canManage: boolean;
};

/**
 * The project (top-level or sub-project) in the acting tenant with the caller's rights, or undefined when it does not
 * exist in this tenant (callers answer 404 exactly as for a missing id).
 */
export async function findProjectRights(
  db: Executor,
  auth: AuthContext,
  projectId: string,
): Promise<ProjectRights | undefined> {
  const project = await findRightsProject(db, auth.tenantId, projectId);
  if (!project) return undefined;
  const memberOf = project.parentId ?? project.id;
  const membership = await findMembershipRole(db, auth.tenantId, memberOf, auth.userId);
  const sysActing = auth.switched;
  const isOwner = project.ownerId === auth.userId || membership?.code === 'project_owner';
  // A switched system administrator: the set-up is its to change only under the tenant's support access.
  const permissions = sysActing
    ? switchedProjectPermissions(auth.supportAccessUntil !== null)
    : (membership?.permissions ?? []);
  const canManage =
    isOwner ||
    permissions.includes(PERMISSIONS.permissionManage) ||
    (membership !== undefined && auth.tenantPermissions.includes(PERMISSIONS.projectManage));
  return {
    project,
    isOwner,
    isMember: membership !== undefined,
    centerId: membership?.centerId ?? null,
    permissions,
    canManage,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID.test(value);
