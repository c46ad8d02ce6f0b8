import { and, asc, count, desc, eq, ilike, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client';
import { escapeLike } from '../../lib/escape-like';
import {
  centers,
  departments,
  joinRequests,
  organisations,
  projectMembers,
  projects,
  roles,
  tenants,
  users,
} from '../../db/schema';
import { pageTotal } from '../../lib/page-total';

/** The unique index of a project's code in its tenant, whatever the case (a race past `findProjectByCode`). */
export const PROJECT_CODE_UNIQUE = 'projects_tenant_code_ci_uq';

export async function findProjectByCode(db: Executor, tenantId: string, code: string) {
  const [row] = await db
    .select({ id: projects.id })
    .from(projects)
    .where(and(eq(projects.tenantId, tenantId), sql`lower(${projects.code}) = lower(${code})`))
    .limit(1);
  return row;
}

export async function findFullProject(db: Executor, tenantId: string, id: string) {
  const [row] = await db
    .select()
    .from(projects)
    .where(and(eq(projects.tenantId, tenantId), eq(projects.id, id)))
    .limit(1);
  return row;
}

export type NewProject = typeof projects.$inferInsert;

export async function insertProject(db: Executor, values: NewProject) {
  const [row] = await db.insert(projects).values(values).returning();
  if (!row) throw new Error('project insert returned no row');
  return row;
}

export async function updateProject(db: Executor, tenantId: string, id: string, set: Partial<NewProject>) {
  await db
    .update(projects)
    .set(set)
    .where(and(eq(projects.tenantId, tenantId), eq(projects.id, id)));
}

export async function updateChildrenStatus(
  db: Executor,
  tenantId: string,
  parentId: string,
  status: 'archived',
  at: Date,
) {
  return db
    .update(projects)
    .set({ status, updatedAt: at })
    .where(and(eq(projects.tenantId, tenantId), eq(projects.parentId, parentId), ne(projects.status, status)))
    .returning({ id: projects.id });
}

export async function builtInRoleIdOf(db: Executor, code: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.code, code), isNull(roles.tenantId), isNull(roles.projectId)))
    .limit(1);
  return row?.id;
}

export async function insertCenter(db: Executor, values: typeof centers.$inferInsert) {
  const [row] = await db.insert(centers).values(values).returning();
  if (!row) throw new Error('center insert returned no row');
  return row;
}

export async function insertOrganisation(db: Executor, tenantId: string, name: string) {
  const [row] = await db
    .insert(organisations)
    .values({ tenantId, name })
    .returning({ id: organisations.id, name: organisations.name });
  if (!row) throw new Error('organisation insert returned no row');
  return row;
}

export async function listOrganisations(db: Executor, tenantId: string, keyword?: string) {
  const conditions: SQL[] = [eq(organisations.tenantId, tenantId)];
  if (keyword) conditions.push(ilike(organisations.name, escapeLike(keyword)));
  return db
    .select({ id: organisations.id, name: organisations.name })
    .from(organisations)
    .where(and(...conditions))
    .orderBy(asc(organisations.name))
    .limit(200);
}

export async function findOrganisationByName(db: Executor, tenantId: string, name: string) {
  const [row] = await db
    .select({ id: organisations.id })
    .from(organisations)
    .where(and(eq(organisations.tenantId, tenantId), eq(organisations.name, name)))
    .limit(1);
  return row;
}

export async function findTenantName(db: Executor, tenantId: string) {
  const [row] = await db.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  return row?.name;
}

/** Active users of the tenant with their department (for assigning members and tasks). */
export async function listTenantDoctors(db: Executor, tenantId: string) {
  return db
    .select({
      id: users.id,
      name: users.name,
      username: users.username,
      departmentName: sql<string>`coalesce(${departments.name}, '')`,
    })
    .from(users)
    .leftJoin(departments, eq(departments.id, users.departmentId))
    .where(and(eq(users.tenantId, tenantId), eq(users.disabled, false)))
    .orderBy(asc(users.name), asc(users.username))
    .limit(1000);
}

/** Top-level projects of the tenant the user is not a member of (nor owner): code exact or name contains. */
export async function searchJoinable(db: Executor, tenantId: string, userId: string, keyword: string) {
  const owner = alias(users, 'owner');
  const mine = alias(projectMembers, 'mine');
  const pending = alias(joinRequests, 'pending');
  return db
    .select({
      id: projects.id,
      code: projects.code,
      name: projects.name,
      diseaseArea: projects.diseaseArea,
      status: projects.status,
      ownerName: owner.name,
      pendingId: pending.id,
    })
    .from(projects)
    .innerJoin(owner, eq(owner.id, projects.ownerId))
    .leftJoin(mine, and(eq(mine.projectId, projects.id), eq(mine.userId, userId), eq(mine.tenantId, tenantId)))
    .leftJoin(
      pending,
      and(
        eq(pending.projectId, projects.id),
        eq(pending.userId, userId),
        eq(pending.tenantId, tenantId),
        eq(pending.status, 'pending'),
      ),
    )
    .where(
      and(
        eq(projects.tenantId, tenantId),
        isNull(projects.parentId),
        ne(projects.ownerId, userId),
        isNull(mine.id),
        ne(projects.status, 'archived'),
        or(sql`lower(${projects.code}) = lower(${keyword})`, ilike(projects.name, escapeLike(keyword))),
      ),
    )
    .orderBy(asc(projects.code))
    .limit(50);
}

export async function findPendingJoinRequest(db: Executor, tenantId: string, projectId: string, userId: string) {
  const [row] = await db
    .select({ id: joinRequests.id })
    .from(joinRequests)
    .where(
      and(
        eq(joinRequests.tenantId, tenantId),
        eq(joinRequests.projectId, projectId),
        eq(joinRequests.userId, userId),
        eq(joinRequests.status, 'pending'),
      ),
    )
    .limit(1);
  return row;
}

export async function insertJoinRequest(
  db: Executor,
  values: { tenantId: string; projectId: string; userId: string; message: string | null; createdAt: Date },
) {
  const [row] = await db.insert(joinRequests).values(values).returning({ id: joinRequests.id });
  if (!row) throw new Error('join request insert returned no row');
  return row;
}

export async function findJoinRequest(db: Executor, tenantId: string, id: string) {
  const [row] = await db
    .select()
    .from(joinRequests)
    .where(and(eq(joinRequests.tenantId, tenantId), eq(joinRequests.id, id)))
    .limit(1);
  return row;
}

/** Marks a pending request decided; returns false when it was no longer pending (decided concurrently). */
export async function decideJoinRequest(
  db: Executor,
  id: string,
  set: {
    status: 'approved' | 'refused';
    reason: string | null;
    roleId: string | null;
    centerId: string | null;
    decidedBy: string;
    decidedAt: Date;
  },
): Promise<boolean> {
  const rows = await db
    .update(joinRequests)
    .set(set)
    .where(and(eq(joinRequests.id, id), eq(joinRequests.status, 'pending')))
    .returning({ id: joinRequests.id });
  return rows.length === 1;
}

const requester = alias(users, 'requester');
const decider = alias(users, 'decider');

function joinRequestSelect(db: Executor) {
  return db
    .select({
      id: joinRequests.id,
      projectId: joinRequests.projectId,
      projectCode: projects.code,
      projectName: projects.name,
      userId: joinRequests.userId,
      username: requester.username,
      userName: requester.name,
      departmentName: sql<string>`coalesce(${departments.name}, '')`,
      message: joinRequests.message,
      status: joinRequests.status,
      reason: joinRequests.reason,
      roleName: roles.name,
      createdAt: joinRequests.createdAt,
      decidedAt: joinRequests.decidedAt,
      decidedByName: decider.name,
    })
    .from(joinRequests)
    .innerJoin(projects, eq(projects.id, joinRequests.projectId))
    .innerJoin(requester, eq(requester.id, joinRequests.userId))
    .leftJoin(departments, eq(departments.id, requester.departmentId))
    .leftJoin(roles, eq(roles.id, joinRequests.roleId))
    .leftJoin(decider, eq(decider.id, joinRequests.decidedBy));
}

export type JoinRequestRow = Awaited<ReturnType<ReturnType<typeof joinRequestSelect>['execute']>>[number];

export async function listOwnJoinRequests(db: Executor, tenantId: string, userId: string) {
  return joinRequestSelect(db)
    .where(and(eq(joinRequests.tenantId, tenantId), eq(joinRequests.userId, userId)))
    .orderBy(desc(joinRequests.createdAt))
    .limit(200);
}

export async function getJoinRequestRow(db: Executor, tenantId: string, id: string) {
  const [row] = await joinRequestSelect(db)
    .where(and(eq(joinRequests.tenantId, tenantId), eq(joinRequests.id, id)))
    .limit(1);
  return row;
}

/**
 * The condition "the caller may decide requests of this project": owner, or a member whose role holds
 * permission.manage (or everything, for a system administrator acting in the tenant).
 */
function manageableProject(tenantId: string, userId: string, everyProject: boolean): SQL | undefined {
  if (everyProject) return undefined;
  return or(
    eq(projects.ownerId, userId),
    sql`exists (select 1 from ${projectMembers} pm join ${roles} r on r.id = pm.role_id
      where pm.tenant_id = ${tenantId} and pm.project_id = ${projects.id} and pm.user_id = ${userId}
      and (r.code = 'project_owner' or 'permission.manage' = any(r.permissions)))`,
  );
}

export async function pageManageableJoinRequests(
  db: Executor,
  q: {
    tenantId: string;
    userId: string;
    everyProject: boolean;
    status?: string;
    projectId?: string;
    current: number;
    size: number;
  },
) {
  const conditions: (SQL | undefined)[] = [
    eq(joinRequests.tenantId, q.tenantId),
    manageableProject(q.tenantId, q.userId, q.everyProject),
  ];
  if (q.status) conditions.push(eq(joinRequests.status, q.status as 'pending'));
  if (q.projectId) conditions.push(eq(joinRequests.projectId, q.projectId));
  const where = and(...conditions);
  const records = await joinRequestSelect(db)
    .where(where)
    .orderBy(desc(joinRequests.createdAt), desc(joinRequests.id))
    .limit(q.size)
    .offset((q.current - 1) * q.size);
  const total = await pageTotal({ offset: (q.current - 1) * q.size, size: q.size, rows: records.length }, async () => {
    const [c] = await db
      .select({ n: count() })
      .from(joinRequests)
      .innerJoin(projects, eq(projects.id, joinRequests.projectId))
      .where(where);
    return c?.n ?? 0;
  });
  return { records, total };
}

/** The project's active centers (default first, then by code). */
export async function listActiveCenters(db: Executor, tenantId: string, rootProjectId: string) {
  return db
    .select({ id: centers.id, code: centers.code, name: centers.name })
    .from(centers)
    .where(and(eq(centers.tenantId, tenantId), eq(centers.projectId, rootProjectId), eq(centers.status, 'active')))
    .orderBy(desc(centers.isDefault), asc(centers.code));
}
