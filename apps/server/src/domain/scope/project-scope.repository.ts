import { and, eq, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { projectMembers, projects, roles } from '../../db/schema';
import type { ProjectScope } from './project-scope';

/** The project's id and parent in the tenant (no row: not in this tenant). */
export async function findScopeProject(db: Executor, tenantId: string, projectId: string) {
  return db
    .select({ id: projects.id, parentId: projects.parentId })
    .from(projects)
    .where(and(eq(projects.tenantId, tenantId), eq(projects.id, projectId)))
    .limit(1);
}

/** The project in the tenant with the fields its rights are computed from. */
export async function findRightsProject(db: Executor, tenantId: string, projectId: string) {
  const [project] = await db
    .select({
      id: projects.id,
      code: projects.code,
      name: projects.name,
      parentId: projects.parentId,
      ownerId: projects.ownerId,
      status: projects.status,
    })
    .from(projects)
    .where(and(eq(projects.tenantId, tenantId), eq(projects.id, projectId)))
    .limit(1);
  return project;
}

/** The user's membership of a top-level project: its role's permissions and code, and its center. */
export async function findMembershipRole(db: Executor, tenantId: string, projectId: string, userId: string) {
  const [membership] = await db
    .select({ permissions: roles.permissions, code: roles.code, centerId: projectMembers.centerId })
    .from(projectMembers)
    .innerJoin(roles, eq(roles.id, projectMembers.roleId))
    .where(
      and(
        eq(projectMembers.tenantId, tenantId),
        eq(projectMembers.projectId, projectId),
        eq(projectMembers.userId, userId),
      ),
    )
    .limit(1);
  return membership;
}

/**
 * THE center rule: a membership with a center sees only rows of that center. Returns the SQL condition over the
 * row's center column (undefined = no restriction). Every repository of center-owned rows (members, patients, ...)
 * adds it to its WHERE.
 */
export function centerCondition(scope: Pick<ProjectScope, 'centerId'>, centerColumn: AnyColumn): SQL | undefined {
  return scope.centerId ? eq(centerColumn, scope.centerId) : undefined;
}
