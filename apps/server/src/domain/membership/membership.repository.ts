import { and, asc, desc, eq, isNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { centers, organisations, projectMembers, roles, users } from '../../db/schema';
import type { ProjectScope } from '../scope/project-scope';

/*
 * Project membership as the project set-up (members added with a new project, join requests) and the member and role
 * screens both use it: memberships, the roles a project may assign, its centers, a user's home organisation.
 */

export async function findMembership(db: Executor, tenantId: string, projectId: string, userId: string) {
  const [row] = await db
    .select({ id: projectMembers.id })
    .from(projectMembers)
    .where(
      and(
        eq(projectMembers.tenantId, tenantId),
        eq(projectMembers.projectId, projectId),
        eq(projectMembers.userId, userId),
      ),
    )
    .limit(1);
  return row;
}

/** The organisation of the user, else the tenant's first organisation. */
export async function homeOrganisationOf(db: Executor, tenantId: string, userId: string) {
  const [own] = await db
    .select({ id: organisations.id, name: organisations.name })
    .from(users)
    .innerJoin(organisations, eq(organisations.id, users.organisationId))
    .where(and(eq(users.id, userId), eq(organisations.tenantId, tenantId)))
    .limit(1);
  if (own) return own;
  return firstOrganisation(db, tenantId);
}

export async function insertMember(
  db: Executor,
  values: { tenantId: string; projectId: string; userId: string; roleId: string; centerId: string | null },
) {
  const [row] = await db.insert(projectMembers).values(values).returning();
  if (!row) throw new Error('member insert returned no row');
  return row;
}

/** A role usable in the project: a built-in project role, or a custom role of the project. */
export async function findAssignableRole(db: Executor, tenantId: string, rootProjectId: string, roleId: string) {
  const [row] = await listProjectRoles(db, { tenantId, rootProjectId }, roleId);
  return row;
}

export async function findProjectCenter(db: Executor, tenantId: string, rootProjectId: string, centerId: string) {
  const [row] = await db
    .select({ id: centers.id, name: centers.name, status: centers.status, organisationId: centers.organisationId })
    .from(centers)
    .where(and(eq(centers.tenantId, tenantId), eq(centers.projectId, rootProjectId), eq(centers.id, centerId)))
    .limit(1);
  return row;
}

/** Roles usable in the scope's (root) project: the built-in project roles and the project's own, with member counts. */
export async function listProjectRoles(
  db: Executor,
  scope: Pick<ProjectScope, 'tenantId' | 'rootProjectId'>,
  id?: string,
) {
  const usable = or(
    and(isNull(roles.tenantId), isNull(roles.projectId), eq(roles.scope, 'project')),
    and(eq(roles.tenantId, scope.tenantId), eq(roles.projectId, scope.rootProjectId)),
  );
  return db
    .select({
      id: roles.id,
      code: roles.code,
      name: roles.name,
      builtIn: roles.builtIn,
      permissions: roles.permissions,
      createdAt: roles.createdAt,
      memberCount: sql<number>`(select count(*)::int from ${projectMembers} pm
        where pm.tenant_id = ${scope.tenantId} and pm.project_id = ${scope.rootProjectId} and pm.role_id = "roles"."id")`,
    })
    .from(roles)
    .where(id ? and(usable, eq(roles.id, id)) : usable)
    .orderBy(desc(roles.builtIn), asc(roles.createdAt), asc(roles.name));
}

export async function firstOrganisation(db: Executor, tenantId: string) {
  const [first] = await db
    .select({ id: organisations.id, name: organisations.name })
    .from(organisations)
    .where(eq(organisations.tenantId, tenantId))
    .orderBy(asc(organisations.createdAt), asc(organisations.name))
    .limit(1);
  return first;
}
