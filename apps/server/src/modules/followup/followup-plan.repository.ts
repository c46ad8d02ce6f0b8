import { and, asc, desc, eq, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { PlanAnchor, PlanPeriod, PlanRule } from '@registry/shared/contracts/followup';
import type { Executor } from '../../db/client';
import { followupPlans, followupTasks, followupVisits, projectMembers, projects, users } from '../../db/schema';
import { stateCondition } from './followup-task.repository';

/**
 * Follow-up plans and their visits. Assignments are `followup-assignment.repository.ts`, the reads and set-based
 * writes of task generation (`followup-sync.ts`) `followup-sync.repository.ts`.
 */

const owner = alias(users, 'owner');
const creator = alias(users, 'creator');
/** `followup_tasks t` of the raw counts. */
const t = alias(followupTasks, 't');

const planColumns = {
  id: followupPlans.id,
  tenantId: followupPlans.tenantId,
  projectId: followupPlans.projectId,
  name: followupPlans.name,
  description: followupPlans.description,
  kind: followupPlans.kind,
  status: followupPlans.status,
  anchor: followupPlans.anchor,
  period: followupPlans.period,
  assignMode: followupPlans.assignMode,
  rule: followupPlans.rule,
  remindDaysBefore: followupPlans.remindDaysBefore,
  defaultOwnerId: followupPlans.defaultOwnerId,
  defaultOwnerName: owner.name,
  rowVersion: followupPlans.rowVersion,
  createdByName: creator.name,
  createdAt: followupPlans.createdAt,
  updatedAt: followupPlans.updatedAt,
};

type RawPlan = Awaited<ReturnType<typeof selectPlans>>[number];
export type PlanRow = Omit<RawPlan, 'anchor' | 'period' | 'rule'> & {
  anchor: PlanAnchor | null;
  period: PlanPeriod | null;
  rule: PlanRule | null;
};

function selectPlans(ex: Executor, where: SQL | undefined) {
  return ex
    .select(planColumns)
    .from(followupPlans)
    .leftJoin(owner, eq(owner.id, followupPlans.defaultOwnerId))
    .leftJoin(creator, eq(creator.id, followupPlans.createdBy))
    .where(where)
    .orderBy(desc(followupPlans.createdAt), desc(followupPlans.id));
}

// The documents were checked against their contracts when they were written.
const asPlan = (row: RawPlan): PlanRow => ({
  ...row,
  anchor: row.anchor as PlanAnchor | null,
  period: row.period as PlanPeriod | null,
  rule: row.rule as PlanRule | null,
});

/** The live plans of a project, newest first. */
export async function listPlanRows(ex: Executor, tenantId: string, projectId: string): Promise<PlanRow[]> {
  const rows = await selectPlans(
    ex,
    and(eq(followupPlans.tenantId, tenantId), eq(followupPlans.projectId, projectId), isNull(followupPlans.deletedAt)),
  );
  return rows.map(asPlan);
}

export async function findPlanRow(
  ex: Executor,
  tenantId: string,
  projectId: string,
  id: string,
): Promise<PlanRow | undefined> {
  const [row] = await selectPlans(
    ex,
    and(
      eq(followupPlans.tenantId, tenantId),
      eq(followupPlans.projectId, projectId),
      eq(followupPlans.id, id),
      isNull(followupPlans.deletedAt),
    ),
  );
  return row ? asPlan(row) : undefined;
}

/** Locks the plan row for the rest of the transaction (plan edits, activation and rule runs serialise on it). */
export async function lockPlan(ex: Executor, id: string): Promise<void> {
  await ex.execute(sql`select 1 from followup_plans where id = ${id} for update`);
}

export type VisitRow = typeof followupVisits.$inferSelect;

/** The visits of plans by sequence; removed ones only with `withDeleted`. */
export async function visitsOf(ex: Executor, planIds: string[], withDeleted = false): Promise<VisitRow[]> {
  if (planIds.length === 0) return [];
  return ex
    .select()
    .from(followupVisits)
    .where(and(inArray(followupVisits.planId, planIds), withDeleted ? undefined : isNull(followupVisits.deletedAt)))
    .orderBy(asc(followupVisits.planId), asc(followupVisits.seq));
}

export type PlanCounts = { patientCount: number; openTaskCount: number; overdueTaskCount: number };

/** Patients following each plan (active assignments), its open tasks and those overdue on `today`. */
export async function planCounts(ex: Executor, planIds: string[], today: string): Promise<Map<string, PlanCounts>> {
  const out = new Map<string, PlanCounts>();
  if (planIds.length === 0) return out;
  const ids = sql.join(
    planIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const { rows } = await ex.execute<{ plan_id: string; patients: number; open: number; overdue: number }>(sql`
    select p.id::text as plan_id,
      (select count(*)::int from followup_assignments a where a.plan_id = p.id and a.status = 'active') as patients,
      (select count(*)::int from followup_tasks t where t.plan_id = p.id and t.status = 'open') as open,
      (select count(*)::int from followup_tasks t
        where t.plan_id = p.id and ${stateCondition('overdue', today, t)}) as overdue
    from followup_plans p where p.id in (${ids})`);
  for (const r of rows)
    out.set(r.plan_id, { patientCount: r.patients, openTaskCount: r.open, overdueTaskCount: r.overdue });
  return out;
}

export async function planNameTaken(ex: Executor, projectId: string, name: string, exceptId?: string) {
  const [row] = await ex
    .select({ id: followupPlans.id })
    .from(followupPlans)
    .where(
      and(
        eq(followupPlans.projectId, projectId),
        eq(followupPlans.name, name),
        isNull(followupPlans.deletedAt),
        exceptId ? ne(followupPlans.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function insertPlanRow(ex: Executor, values: typeof followupPlans.$inferInsert): Promise<string> {
  const [row] = await ex.insert(followupPlans).values(values).returning({ id: followupPlans.id });
  if (!row) throw new Error('followup plan insert returned no row');
  return row.id;
}

/** Updates a plan when its row version still matches; undefined when someone saved in between. */
export async function updatePlanRow(
  ex: Executor,
  id: string,
  rowVersion: number | null,
  set: Partial<typeof followupPlans.$inferInsert>,
): Promise<{ rowVersion: number } | undefined> {
  const [row] = await ex
    .update(followupPlans)
    .set({ ...set, rowVersion: sql`${followupPlans.rowVersion} + 1` })
    .where(
      and(
        eq(followupPlans.id, id),
        isNull(followupPlans.deletedAt),
        rowVersion === null ? undefined : eq(followupPlans.rowVersion, rowVersion),
      ),
    )
    .returning({ rowVersion: followupPlans.rowVersion });
  return row;
}

export async function insertVisitRows(ex: Executor, rows: (typeof followupVisits.$inferInsert)[]) {
  if (rows.length === 0) return [];
  return ex.insert(followupVisits).values(rows).returning({ id: followupVisits.id, seq: followupVisits.seq });
}

export async function updateVisitRow(ex: Executor, id: string, set: Partial<typeof followupVisits.$inferInsert>) {
  await ex.update(followupVisits).set(set).where(eq(followupVisits.id, id));
}

export async function softDeleteVisitRows(ex: Executor, ids: string[], at: Date) {
  if (ids.length === 0) return;
  await ex.update(followupVisits).set({ deletedAt: at }).where(inArray(followupVisits.id, ids));
}

/** Any task, or any assignment, of the plan. */
export async function planUsage(ex: Executor, planId: string): Promise<{ tasks: boolean; assignments: boolean }> {
  const { rows } = await ex.execute<{ tasks: boolean; assignments: boolean }>(sql`
    select exists (select 1 from followup_tasks where plan_id = ${planId}) as tasks,
      exists (select 1 from followup_assignments where plan_id = ${planId}) as assignments`);
  return { tasks: rows[0]?.tasks === true, assignments: rows[0]?.assignments === true };
}

/** A member (any role) of the project whose members apply (the root project). */
export async function isProjectMember(ex: Executor, tenantId: string, rootProjectId: string, userId: string) {
  const [row] = await ex
    .select({ name: users.name })
    .from(projectMembers)
    .innerJoin(users, eq(users.id, projectMembers.userId))
    .where(
      and(
        eq(projectMembers.tenantId, tenantId),
        eq(projectMembers.projectId, rootProjectId),
        eq(projectMembers.userId, userId),
      ),
    )
    .limit(1);
  return row;
}

/** Of these ids, the sub-projects of the root project. */
export async function subProjectsAmong(ex: Executor, tenantId: string, rootProjectId: string, ids: string[]) {
  if (ids.length === 0) return new Set<string>();
  const rows = await ex
    .select({ id: projects.id })
    .from(projects)
    .where(and(eq(projects.tenantId, tenantId), eq(projects.parentId, rootProjectId), inArray(projects.id, ids)));
  return new Set(rows.map((r) => r.id));
}

/** The plan fields task generation reads. */
export type SyncPlan = Pick<
  PlanRow,
  'id' | 'tenantId' | 'projectId' | 'kind' | 'status' | 'anchor' | 'assignMode' | 'rule' | 'defaultOwnerId'
>;
