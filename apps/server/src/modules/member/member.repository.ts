import { and, asc, count, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { centers, departments, projectMembers, roles, users } from '../../db/schema';
import { escapeLike } from '../../lib/escape-like';
import { centerCondition } from '../../domain/scope/project-scope.repository';
import type { ProjectScope } from '../../domain/scope/project-scope';
import { pageTotal } from '../../lib/page-total';

export const OWNER_ROLE_CODE = 'project_owner';

function memberSelect(db: Executor) {
  return db
    .select({
      id: projectMembers.id,
      userId: users.id,
      username: users.username,
      name: users.name,
      phone: users.phone,
      departmentName: sql<string>`coalesce(${departments.name}, '')`,
      roleId: roles.id,
      roleCode: roles.code,
      roleName: roles.name,
      centerId: projectMembers.centerId,
      centerName: centers.name,
      disabled: users.disabled,
      joinedAt: projectMembers.createdAt,
    })
    .from(projectMembers)
    .innerJoin(users, eq(users.id, projectMembers.userId))
    .innerJoin(roles, eq(roles.id, projectMembers.roleId))
    .leftJoin(centers, eq(centers.id, projectMembers.centerId))
    .leftJoin(departments, eq(departments.id, users.departmentId));
}

export type MemberRow = Awaited<ReturnType<ReturnType<typeof memberSelect>['execute']>>[number];

/** The scope's members: the (root) project's, restricted to the member's own center by the one center rule. */
function scoped(scope: ProjectScope): (SQL | undefined)[] {
  return [
    eq(projectMembers.tenantId, scope.tenantId),
    eq(projectMembers.projectId, scope.rootProjectId),
    centerCondition(scope, projectMembers.centerId),
  ];
}

export async function pageMembers(
  db: Executor,
  scope: ProjectScope,
  q: { keyword?: string; roleId?: string; centerId?: string; current: number; size: number },
) {
  const conditions = scoped(scope);
  if (q.keyword) {
    const p = escapeLike(q.keyword);
    conditions.push(or(ilike(users.name, p), ilike(users.username, p)));
  }
  if (q.roleId) conditions.push(eq(projectMembers.roleId, q.roleId));
  if (q.centerId) conditions.push(eq(projectMembers.centerId, q.centerId));
  const where = and(...conditions);
  const records = await memberSelect(db)
    .where(where)
    .orderBy(asc(projectMembers.createdAt), asc(users.username))
    .limit(q.size)
    .offset((q.current - 1) * q.size);
  const total = await pageTotal({ offset: (q.current - 1) * q.size, size: q.size, rows: records.length }, async () => {
    const [c] = await db
      .select({ n: count() })
      .from(projectMembers)
      .innerJoin(users, eq(users.id, projectMembers.userId))
      .where(where);
    return c?.n ?? 0;
  });
  return { records, total };
}

export async function findScopedMember(db: Executor, scope: ProjectScope, id: string) {
  const [row] = await memberSelect(db)
    .where(and(...scoped(scope), eq(projectMembers.id, id)))
    .limit(1);
  return row;
}

export async function countOwners(db: Executor, scope: ProjectScope): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(projectMembers)
    .innerJoin(roles, eq(roles.id, projectMembers.roleId))
    .where(
      and(
        eq(projectMembers.tenantId, scope.tenantId),
        eq(projectMembers.projectId, scope.rootProjectId),
        eq(roles.code, OWNER_ROLE_CODE),
      ),
    );
  return row?.n ?? 0;
}

export async function updateMember(
  db: Executor,
  scope: ProjectScope,
  id: string,
  set: { roleId?: string; centerId?: string | null },
) {
  await db
    .update(projectMembers)
    .set(set)
    .where(
      and(
        eq(projectMembers.id, id),
        eq(projectMembers.tenantId, scope.tenantId),
        eq(projectMembers.projectId, scope.rootProjectId),
      ),
    );
}

export async function deleteMember(db: Executor, scope: ProjectScope, id: string) {
  await db
    .delete(projectMembers)
    .where(
      and(
        eq(projectMembers.id, id),
        eq(projectMembers.tenantId, scope.tenantId),
        eq(projectMembers.projectId, scope.rootProjectId),
      ),
    );
}

/** Serialises owner changes of one project (the last-owner rule under concurrency). */
export async function lockProjectMembers(db: Executor, scope: ProjectScope) {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`members:${scope.rootProjectId}`}))`);
}
