import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { centers, organisations, projectMembers, users } from '../../db/schema';
import { centerCondition } from '../../domain/scope/project-scope.repository';
import type { ProjectScope } from '../../domain/scope/project-scope';

/** The centers of the scope's (root) project that the scope may see: all, or only the member's own center. */
export async function listCenters(
  db: Executor,
  scope: ProjectScope,
  filter: { status?: 'active' | 'closed'; id?: string },
) {
  const conditions: (SQL | undefined)[] = [
    eq(centers.tenantId, scope.tenantId),
    eq(centers.projectId, scope.rootProjectId),
    centerCondition(scope, centers.id),
  ];
  if (filter.status) conditions.push(eq(centers.status, filter.status));
  if (filter.id) conditions.push(eq(centers.id, filter.id));
  return db
    .select({
      id: centers.id,
      code: centers.code,
      name: centers.name,
      organisationId: centers.organisationId,
      organisationName: organisations.name,
      leadUserId: centers.leadUserId,
      leadName: users.name,
      status: centers.status,
      isDefault: centers.isDefault,
      createdAt: centers.createdAt,
      memberCount: sql<number>`(select count(*)::int from ${projectMembers} pm
        where pm.tenant_id = ${centers.tenantId} and pm.center_id = ${centers.id})`,
    })
    .from(centers)
    .innerJoin(organisations, eq(organisations.id, centers.organisationId))
    .leftJoin(users, eq(users.id, centers.leadUserId))
    .where(and(...conditions))
    .orderBy(desc(centers.isDefault), asc(centers.code));
}

export type CenterRow = Awaited<ReturnType<typeof listCenters>>[number];

/** The unique index of a center's code in its project, whatever the case (a race past `findCenterByCode`). */
export const CENTER_CODE_UNIQUE = 'centers_project_code_ci_uq';

export async function findCenterByCode(db: Executor, scope: ProjectScope, code: string) {
  const [row] = await db
    .select({ id: centers.id })
    .from(centers)
    .where(
      and(
        eq(centers.tenantId, scope.tenantId),
        eq(centers.projectId, scope.rootProjectId),
        sql`lower(${centers.code}) = lower(${code})`,
      ),
    )
    .limit(1);
  return row;
}

export async function findOrganisationInTenant(db: Executor, tenantId: string, id: string) {
  const [row] = await db
    .select({ id: organisations.id })
    .from(organisations)
    .where(and(eq(organisations.tenantId, tenantId), eq(organisations.id, id)))
    .limit(1);
  return row;
}

export async function isProjectMember(db: Executor, scope: ProjectScope, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: projectMembers.id })
    .from(projectMembers)
    .where(
      and(
        eq(projectMembers.tenantId, scope.tenantId),
        eq(projectMembers.projectId, scope.rootProjectId),
        eq(projectMembers.userId, userId),
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function insertCenterRow(db: Executor, values: typeof centers.$inferInsert) {
  const [row] = await db.insert(centers).values(values).returning({ id: centers.id });
  if (!row) throw new Error('center insert returned no row');
  return row;
}

export async function updateCenterRow(
  db: Executor,
  scope: ProjectScope,
  id: string,
  set: Partial<typeof centers.$inferInsert>,
) {
  await db
    .update(centers)
    .set(set)
    .where(and(eq(centers.tenantId, scope.tenantId), eq(centers.projectId, scope.rootProjectId), eq(centers.id, id)));
}
