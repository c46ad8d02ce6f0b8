import { and, count, eq, isNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { joinRequests, projectMembers, roles } from '../../db/schema';
import type { ProjectScope } from '../../domain/scope/project-scope';
import { listProjectRoles } from '../../domain/membership/membership.repository';

export type RoleRow = Awaited<ReturnType<typeof listProjectRoles>>[number];

/** A role code already used by a built-in role or by a role of the project. */
export async function roleCodeTaken(db: Executor, scope: ProjectScope, code: string): Promise<boolean> {
  const [row] = await db
    .select({ id: roles.id })
    .from(roles)
    .where(
      and(
        eq(roles.code, code),
        or(isNull(roles.tenantId), and(eq(roles.tenantId, scope.tenantId), eq(roles.projectId, scope.rootProjectId))),
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function insertRole(
  db: Executor,
  values: { tenantId: string; projectId: string; code: string; name: string; permissions: string[]; at: Date },
) {
  const [row] = await db
    .insert(roles)
    .values({
      tenantId: values.tenantId,
      projectId: values.projectId,
      code: values.code,
      name: values.name,
      scope: 'project',
      builtIn: false,
      permissions: values.permissions,
      createdAt: values.at,
      updatedAt: values.at,
    })
    .returning({ id: roles.id });
  if (!row) throw new Error('role insert returned no row');
  return row;
}

export async function updateRole(
  db: Executor,
  scope: ProjectScope,
  id: string,
  set: { name?: string; permissions?: string[]; updatedAt: Date },
) {
  await db
    .update(roles)
    .set(set)
    .where(and(eq(roles.id, id), eq(roles.tenantId, scope.tenantId), eq(roles.projectId, scope.rootProjectId)));
}

/** Deletes the custom role if no membership holds it (checked in the same statement); false when in use. */
export async function deleteUnusedRole(db: Executor, scope: ProjectScope, id: string): Promise<boolean> {
  const [used] = await db.select({ n: count() }).from(projectMembers).where(eq(projectMembers.roleId, id));
  if ((used?.n ?? 0) > 0) return false;
  const rows = await db
    .delete(roles)
    .where(
      and(
        eq(roles.id, id),
        eq(roles.tenantId, scope.tenantId),
        eq(roles.projectId, scope.rootProjectId),
        sql`not exists (select 1 from ${projectMembers} pm where pm.role_id = "roles"."id")`,
        sql`not exists (select 1 from ${joinRequests} jr where jr.role_id = "roles"."id")`,
      ),
    )
    .returning({ id: roles.id });
  return rows.length === 1;
}
