import { and, asc, desc, eq, ilike, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { PlanAnchor, PlanPeriod, PlanRule } from '@registry/shared/contracts/followup';
import type { Executor } from '../../db/client';
import {
  centers,
  followupAssignments,
  followupPlans,
  followupTasks,
  followupVisits,
  formRecords,
  patients,
  projectMembers,
  projects,
  users,
} from '../../db/schema';
import { patientScope } from '../../domain/scope/patient-scope.repository';
import type { ProjectScope } from '../../domain/scope/project-scope';
import { pageTotal } from '../../lib/page-total';

/**
 * Follow-up plans, visits and assignments, and the set-based writes of task generation (`followup-sync.ts`). The only
 * file of the plan side touching Drizzle.
 */

// ---------------------------------------------------------------------------------------------------------------
// Plans and visits
// ---------------------------------------------------------------------------------------------------------------

const owner = alias(users, 'owner');
const creator = alias(users, 'creator');

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

/** Patients following each plan (active assignments), its open tasks and those past their window on `today`. */
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
        where t.plan_id = p.id and t.status = 'open' and t.window_end < ${today}::date) as overdue
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

// ---------------------------------------------------------------------------------------------------------------
// Task generation (the sets of followup-sync.ts)
// ---------------------------------------------------------------------------------------------------------------

/** The plan fields task generation reads. */
export type SyncPlan = Pick<
  PlanRow,
  'id' | 'tenantId' | 'projectId' | 'kind' | 'status' | 'anchor' | 'assignMode' | 'rule' | 'defaultOwnerId'
>;

/**
 * The active plans a patient may follow: those of the patient's project and of its sub-project, and the `auto` plans
 * the patient has a rule assignment of (a patient who left the plan's sub-project). One query.
 */
export async function activePlansOfPatient(ex: Executor, tenantId: string, patientId: string): Promise<SyncPlan[]> {
  const { rows } = await ex.execute<{
    id: string;
    tenant_id: string;
    project_id: string;
    kind: 'relative' | 'fixed';
    anchor: PlanAnchor | null;
    assign_mode: 'manual' | 'auto';
    rule: PlanRule | null;
    default_owner_id: string | null;
  }>(sql`
    select fp.id, fp.tenant_id, fp.project_id, fp.kind, fp.anchor, fp.assign_mode, fp.rule, fp.default_owner_id
    from patients p
    join followup_plans fp on fp.tenant_id = p.tenant_id
      and ((fp.project_id = p.project_id or fp.project_id = p.sub_project_id)
      or (fp.assign_mode = 'auto' and exists (select 1 from followup_assignments a
        where a.plan_id = fp.id and a.patient_id = p.id and a.source = 'rule')))
    where p.id = ${patientId} and p.tenant_id = ${tenantId} and fp.status = 'active' and fp.deleted_at is null
    order by fp.created_at`);
  return rows.map((r) => ({
    id: r.id,
    tenantId: r.tenant_id,
    projectId: r.project_id,
    kind: r.kind,
    status: 'active',
    anchor: r.anchor,
    assignMode: r.assign_mode,
    rule: r.rule,
    defaultOwnerId: r.default_owner_id,
  }));
}

/** True when an active plan of the project reads this form (its anchor field or its rule field). */
export async function activePlanReadsForm(ex: Executor, tenantId: string, projectIds: string[], formKey: string) {
  const { rows } = await ex.execute<{ hit: boolean }>(sql`
    select exists (
      select 1 from followup_plans
      where tenant_id = ${tenantId} and project_id in (${sql.join(
        projectIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})
        and status = 'active' and deleted_at is null
        and (anchor ->> 'formKey' = ${formKey} or rule -> 'field' ->> 'formKey' = ${formKey})
    ) as hit`);
  return rows[0]?.hit === true;
}

export type PatientSyncRow = {
  id: string;
  projectId: string;
  subProjectId: string | null;
  enrolDate: string | null;
  status: string;
  lost: boolean;
  deleted: boolean;
};

export async function patientForSync(ex: Executor, tenantId: string, patientId: string) {
  const [row] = await ex
    .select({
      id: patients.id,
      projectId: patients.projectId,
      subProjectId: patients.subProjectId,
      enrolDate: patients.enrolDate,
      status: patients.status,
      lostAt: patients.followupLostAt,
      deletedAt: patients.deletedAt,
    })
    .from(patients)
    .where(and(eq(patients.tenantId, tenantId), eq(patients.id, patientId)))
    .limit(1);
  if (!row) return undefined;
  return {
    id: row.id,
    projectId: row.projectId,
    subProjectId: row.subProjectId,
    enrolDate: row.enrolDate,
    status: row.status,
    lost: row.lostAt !== null,
    deleted: row.deletedAt !== null,
  } satisfies PatientSyncRow;
}

/** The data of the patient's instance-1 records of these forms. */
export async function patientFormValues(ex: Executor, tenantId: string, patientId: string, formKeys: string[]) {
  const out = new Map<string, Record<string, unknown>>();
  if (formKeys.length === 0) return out;
  const rows = await ex
    .select({ formKey: formRecords.formKey, data: formRecords.data })
    .from(formRecords)
    .where(
      and(
        eq(formRecords.tenantId, tenantId),
        eq(formRecords.patientId, patientId),
        inArray(formRecords.formKey, formKeys),
        eq(formRecords.instance, 1),
        isNull(formRecords.deletedAt),
      ),
    );
  for (const r of rows) out.set(r.formKey, r.data as Record<string, unknown>);
  return out;
}

/** The patient's assignments of these plans (any status). */
export async function assignmentsOfPatient(ex: Executor, patientId: string, planIds: string[]) {
  if (planIds.length === 0) return [];
  return ex
    .select({
      id: followupAssignments.id,
      planId: followupAssignments.planId,
      source: followupAssignments.source,
      status: followupAssignments.status,
      stoppedReason: followupAssignments.stoppedReason,
    })
    .from(followupAssignments)
    .where(and(eq(followupAssignments.patientId, patientId), inArray(followupAssignments.planId, planIds)));
}

/** Patient `p` belongs to the plan's project (a sub-project's plan: that cohort). */
function inPlanProject(plan: Pick<SyncPlan, 'projectId'>): SQL {
  return sql`(p.project_id = ${plan.projectId} or p.sub_project_id = ${plan.projectId})`;
}

/** Live patients the plan may follow: its project's (a sub-project's plan: that cohort's), not deceased, not lost. */
function eligible(plan: Pick<SyncPlan, 'projectId'>): SQL {
  return sql`${inPlanProject(plan)}
    and p.deleted_at is null and p.status <> 'deceased' and p.followup_lost_at is null`;
}

/**
 * The rule as SQL over patient `p` (the same answer as `ruleMatches`): sub-project membership and the field
 * condition on the instance-1 record of the field's form.
 */
function ruleCondition(rule: PlanRule | null): SQL {
  const parts: SQL[] = [];
  const subs = rule?.subProjectIds ?? [];
  if (subs.length > 0)
    parts.push(
      sql`p.sub_project_id in (${sql.join(
        subs.map((s) => sql`${s}::uuid`),
        sql`, `,
      )})`,
    );
  const field = rule?.field;
  if (field) {
    const v = sql`(r.data -> ${field.fieldKey})`;
    const values = sql`array[${sql.join(
      (field.values.length > 0 ? field.values : ['\u0000']).map((x) => sql`${x}::text`),
      sql`, `,
    )}]`;
    const test =
      field.op === 'filled'
        ? sql`${v} is not null and ${v} not in ('null'::jsonb, '""'::jsonb, '[]'::jsonb)`
        : sql`case jsonb_typeof(${v})
            when 'array' then exists (select 1 from jsonb_array_elements(${v}) e
              where jsonb_typeof(e) in ('string', 'number', 'boolean') and (e #>> '{}') = any(${values}))
            when 'string' then (${v} #>> '{}') = any(${values})
            when 'number' then (${v} #>> '{}') = any(${values})
            when 'boolean' then (${v} #>> '{}') = any(${values})
            else false end`;
    parts.push(sql`exists (select 1 from form_records r
      where r.tenant_id = p.tenant_id and r.patient_id = p.id and r.form_key = ${field.formKey} and r.instance = 1
        and r.deleted_at is null and ${test})`);
  }
  return parts.length > 0 ? sql.join(parts, sql` and `) : sql`true`;
}

/**
 * Assigns every eligible patient matching the rule who has no assignment of the plan yet (a stopped assignment stays
 * stopped: a patient removed by hand is not re-added by the rule). One statement; the new assignments' patient ids.
 */
export async function assignByRule(
  ex: Executor,
  plan: SyncPlan,
  by: { userId: string | null; at: Date; patientId?: string },
): Promise<string[]> {
  const { rows } = await ex.execute<{ patient_id: string }>(sql`
    insert into followup_assignments (tenant_id, project_id, plan_id, patient_id, source, status, created_by,
      created_at, updated_at)
    select p.tenant_id, ${plan.projectId}, ${plan.id}, p.id, 'rule', 'active', ${by.userId}, ${by.at}, ${by.at}
    from patients p
    where p.tenant_id = ${plan.tenantId} and ${eligible(plan)} and ${ruleCondition(plan.rule)}
      ${by.patientId ? sql`and p.id = ${by.patientId}` : sql``}
      and not exists (select 1 from followup_assignments a where a.plan_id = ${plan.id} and a.patient_id = p.id)
    on conflict (plan_id, patient_id) do nothing
    returning patient_id::text as patient_id`);
  return rows.map((r) => r.patient_id);
}

/**
 * The set-based half of `syncPatientFollowup`'s rule step, for a whole plan: every active RULE assignment whose patient
 * (not deleted, not deceased: those are closed by the patient sync instead) left the plan's project or no longer
 * matches its rule stops with `reason` (a null sub-project is "not in it": hence the coalesce). Manual assignments and
 * stopped ones are never touched. One statement; the stopped assignments' ids.
 */
export async function stopRuleMismatches(ex: Executor, plan: SyncPlan, reason: string, at: Date): Promise<string[]> {
  const { rows } = await ex.execute<{ id: string }>(sql`
    update followup_assignments a set status = 'stopped', stopped_reason = ${reason}, updated_at = ${at}
    from patients p
    where a.plan_id = ${plan.id} and a.source = 'rule' and a.status = 'active' and p.id = a.patient_id
      and p.deleted_at is null and p.status <> 'deceased'
      and not coalesce(${inPlanProject(plan)} and ${ruleCondition(plan.rule)}, false)
    returning a.id::text as id`);
  return rows.map((r) => r.id);
}

/**
 * The other half: every RULE assignment stopped with `reason` (the rule mismatch) whose patient is eligible and
 * matches the rule again becomes active (its cancelled tasks re-open in `reconcilePlan`). One statement; the
 * resumed assignments' patient ids.
 */
export async function resumeRuleMatches(ex: Executor, plan: SyncPlan, reason: string, at: Date): Promise<string[]> {
  const { rows } = await ex.execute<{ patient_id: string }>(sql`
    update followup_assignments a set status = 'active', stopped_reason = null, updated_at = ${at}
    from patients p
    where a.plan_id = ${plan.id} and a.source = 'rule' and a.status = 'stopped' and a.stopped_reason = ${reason}
      and p.id = a.patient_id and ${eligible(plan)} and ${ruleCondition(plan.rule)}
    returning a.patient_id::text as patient_id`);
  return rows.map((r) => r.patient_id);
}

/** An active assignment with what its anchor and eligibility read. */
export type AssignmentState = {
  id: string;
  patientId: string;
  storedAnchor: string | null;
  enrolDate: string | null;
  /** The anchor field's value on the patient's record (field anchors). */
  fieldValue: unknown;
  /** Alive, not lost, not deleted: may get new tasks. */
  eligible: boolean;
};

/** The plan's active assignments (of these patients only, when given). */
export async function assignmentStates(
  ex: Executor,
  plan: SyncPlan,
  patientIds?: string[],
): Promise<AssignmentState[]> {
  const anchor = plan.kind === 'relative' ? plan.anchor : null;
  const field = anchor?.type === 'field' ? anchor : null;
  const { rows } = await ex.execute<{
    id: string;
    patient_id: string;
    stored: string | null;
    enrol: string | null;
    value: unknown;
    eligible: boolean;
  }>(sql`
    select a.id::text as id, a.patient_id::text as patient_id, a.anchor_date::text as stored,
      p.enrol_date::text as enrol,
      ${
        field
          ? sql`(select r.data -> ${field.fieldKey} from form_records r where r.tenant_id = p.tenant_id
              and r.patient_id = p.id and r.form_key = ${field.formKey} and r.instance = 1 and r.deleted_at is null)`
          : sql`null::jsonb`
      } as value,
      (p.deleted_at is null and p.status <> 'deceased' and p.followup_lost_at is null) as eligible
    from followup_assignments a join patients p on p.id = a.patient_id
    where a.plan_id = ${plan.id} and a.status = 'active'
      ${
        patientIds
          ? patientIds.length > 0
            ? sql`and a.patient_id in (${sql.join(
                patientIds.map((id) => sql`${id}::uuid`),
                sql`, `,
              )})`
            : sql`and false`
          : sql``
      }`);
  return rows.map((r) => ({
    id: r.id,
    patientId: r.patient_id,
    storedAnchor: r.stored,
    enrolDate: r.enrol,
    fieldValue: r.value,
    eligible: r.eligible,
  }));
}

export type TaskStateRow = {
  id: string;
  assignmentId: string;
  visitId: string;
  status: string;
  closedReason: string | null;
  dueDate: string;
  windowStart: string;
  windowEnd: string;
};

/** The tasks of these assignments of the plan. */
export async function tasksOfAssignments(ex: Executor, planId: string, assignmentIds: string[]) {
  if (assignmentIds.length === 0) return [] as TaskStateRow[];
  const { rows } = await ex.execute<{
    id: string;
    assignment_id: string;
    visit_id: string;
    status: string;
    closed_reason: string | null;
    due_date: string;
    window_start: string;
    window_end: string;
  }>(sql`
    select id::text, assignment_id::text, visit_id::text, status, closed_reason, due_date::text, window_start::text,
      window_end::text
    from followup_tasks
    where plan_id = ${planId} and assignment_id = any(${`{${assignmentIds.join(',')}}`}::uuid[])`);
  return rows.map((r): TaskStateRow => ({
    id: r.id,
    assignmentId: r.assignment_id,
    visitId: r.visit_id,
    status: r.status,
    closedReason: r.closed_reason,
    dueDate: r.due_date,
    windowStart: r.window_start,
    windowEnd: r.window_end,
  }));
}

const uuidArray = (values: string[]) => sql`${`{${values.join(',')}}`}::uuid[]`;
const dateArray = (values: string[]) => sql`${`{${values.join(',')}}`}::date[]`;
const CHUNK = 5000;

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

export type NewTask = {
  assignmentId: string;
  patientId: string;
  visitId: string;
  dueDate: string;
  windowStart: string;
  windowEnd: string;
};

/** Inserts tasks (open, owner = the plan's default owner); an existing (assignment, visit) pair is skipped. */
export async function insertTasks(ex: Executor, plan: SyncPlan, tasks: NewTask[], at: Date): Promise<number> {
  let n = 0;
  for (const part of chunks(tasks)) {
    const { rows } = await ex.execute<{ id: string }>(sql`
      insert into followup_tasks (tenant_id, project_id, patient_id, plan_id, visit_id, assignment_id, due_date,
        window_start, window_end, status, owner_id, created_at, updated_at)
      select ${plan.tenantId}, ${plan.projectId}, t.patient_id, ${plan.id}, t.visit_id, t.assignment_id, t.due_date,
        t.window_start, t.window_end, 'open', ${plan.defaultOwnerId}::uuid, ${at}, ${at}
      from unnest(${uuidArray(part.map((t) => t.patientId))}, ${uuidArray(part.map((t) => t.visitId))},
        ${uuidArray(part.map((t) => t.assignmentId))}, ${dateArray(part.map((t) => t.dueDate))},
        ${dateArray(part.map((t) => t.windowStart))}, ${dateArray(part.map((t) => t.windowEnd))})
        as t(patient_id, visit_id, assignment_id, due_date, window_start, window_end)
      on conflict (assignment_id, visit_id) do nothing
      returning id`);
    n += rows.length;
  }
  return n;
}

/**
 * New dates of tasks: open tasks move (`reopen: false`; closed ones are never touched), or cancelled tasks open again
 * with them, closing and reminder cleared (`reopen: true`, a rule assignment resumed).
 */
export async function setTaskDates(
  ex: Executor,
  tasks: { id: string; dueDate: string; windowStart: string; windowEnd: string }[],
  at: Date,
  { reopen }: { reopen: boolean },
): Promise<number> {
  let n = 0;
  for (const part of chunks(tasks)) {
    const { rows } = await ex.execute<{ id: string }>(sql`
      update followup_tasks f set due_date = t.due_date, window_start = t.window_start, window_end = t.window_end,
        ${reopen ? sql`status = 'open', closed_at = null, closed_by = null, closed_reason = null, reminded_at = null,` : sql``}
        row_version = f.row_version + 1, updated_at = ${at}
      from unnest(${uuidArray(part.map((t) => t.id))}, ${dateArray(part.map((t) => t.dueDate))},
        ${dateArray(part.map((t) => t.windowStart))}, ${dateArray(part.map((t) => t.windowEnd))})
        as t(id, due_date, window_start, window_end)
      where f.id = t.id and f.status = ${reopen ? 'cancelled' : 'open'}
      returning f.id`);
    n += rows.length;
  }
  return n;
}

/**
 * Cancels open tasks with a reason (closed ones are never touched) and answers their ids: by id, of a patient, or of a
 * plan, narrowed to some assignments or patients when given (an empty list cancels nothing).
 */
export async function cancelOpenTasks(
  ex: Executor,
  which:
    | { ids: string[] }
    | { tenantId: string; patientId: string; assignmentIds?: string[] }
    | { planId: string; assignmentIds?: string[]; patientIds?: string[] },
  reason: string,
  by: { userId: string | null; at: Date },
): Promise<string[]> {
  const lists = [
    'ids' in which ? which.ids : undefined,
    'assignmentIds' in which ? which.assignmentIds : undefined,
    'patientIds' in which ? which.patientIds : undefined,
  ];
  if (lists.some((list) => list?.length === 0)) return [];
  const where =
    'ids' in which
      ? sql`id = any(${uuidArray(which.ids)})`
      : 'planId' in which
        ? sql`plan_id = ${which.planId}`
        : sql`tenant_id = ${which.tenantId} and patient_id = ${which.patientId}`;
  const narrow = [
    'assignmentIds' in which && which.assignmentIds
      ? sql`and assignment_id = any(${uuidArray(which.assignmentIds)})`
      : sql``,
    'patientIds' in which && which.patientIds ? sql`and patient_id = any(${uuidArray(which.patientIds)})` : sql``,
  ];
  const { rows } = await ex.execute<{ id: string }>(sql`
    update followup_tasks set status = 'cancelled', closed_at = ${by.at}, closed_by = ${by.userId},
      closed_reason = ${reason}, row_version = row_version + 1, updated_at = ${by.at}
    where ${where} and status = 'open' ${narrow[0]} ${narrow[1]}
    returning id::text as id`);
  return rows.map((r) => r.id);
}

/** Stops every active assignment of a patient (a deleted patient); answers their ids. */
export async function stopAssignmentsOfPatient(
  ex: Executor,
  key: { tenantId: string; patientId: string },
  reason: string,
  at: Date,
): Promise<string[]> {
  const rows = await ex
    .update(followupAssignments)
    .set({ status: 'stopped', stoppedReason: reason, updatedAt: at })
    .where(
      and(
        eq(followupAssignments.tenantId, key.tenantId),
        eq(followupAssignments.patientId, key.patientId),
        eq(followupAssignments.status, 'active'),
      ),
    )
    .returning({ id: followupAssignments.id });
  return rows.map((r) => r.id);
}

export async function updateAssignmentAnchors(
  ex: Executor,
  rows: { id: string; anchor: string | null }[],
  at: Date,
): Promise<void> {
  for (const part of chunks(rows)) {
    await ex.execute(sql`
      update followup_assignments a set anchor_date = t.anchor, updated_at = ${at}
      from unnest(${uuidArray(part.map((r) => r.id))},
        ${`{${part.map((r) => r.anchor ?? 'NULL').join(',')}}`}::date[]) as t(id, anchor)
      where a.id = t.id`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Assignments by hand and the plan's patient list
// ---------------------------------------------------------------------------------------------------------------

/** Of these ids, the patients the scope sees (center rule included) with what assignment needs. */
export async function visiblePatients(ex: Executor, scope: ProjectScope, ids: string[]) {
  if (ids.length === 0) return [];
  return ex
    .select({
      id: patients.id,
      subProjectId: patients.subProjectId,
      status: patients.status,
      lostAt: patients.followupLostAt,
    })
    .from(patients)
    .where(and(patientScope(scope), inArray(patients.id, ids)));
}

export async function assignmentsOf(ex: Executor, planId: string, patientIds: string[]) {
  if (patientIds.length === 0) return [];
  return ex
    .select({
      id: followupAssignments.id,
      patientId: followupAssignments.patientId,
      status: followupAssignments.status,
    })
    .from(followupAssignments)
    .where(and(eq(followupAssignments.planId, planId), inArray(followupAssignments.patientId, patientIds)));
}

export async function insertAssignments(ex: Executor, rows: (typeof followupAssignments.$inferInsert)[]) {
  if (rows.length === 0) return;
  await ex.insert(followupAssignments).values(rows).onConflictDoNothing();
}

export async function setAssignmentsStatus(
  ex: Executor,
  ids: string[],
  set: { status: 'active' | 'stopped'; stoppedReason: string | null; at: Date },
) {
  if (ids.length === 0) return;
  await ex
    .update(followupAssignments)
    .set({ status: set.status, stoppedReason: set.stoppedReason, updatedAt: set.at })
    .where(inArray(followupAssignments.id, ids));
}

/** Stops every assignment of a plan (a removed plan). */
export async function stopAllAssignments(ex: Executor, planId: string, reason: string, at: Date) {
  await ex
    .update(followupAssignments)
    .set({ status: 'stopped', stoppedReason: reason, updatedAt: at })
    .where(and(eq(followupAssignments.planId, planId), eq(followupAssignments.status, 'active')));
}

/** A page of the plan's patients the scope sees (center rule), newest assignment first. */
export async function pageAssignments(
  ex: Executor,
  scope: ProjectScope,
  planId: string,
  q: { keyword?: string; piiSearch: boolean; current: number; size: number },
) {
  const keyword = q.keyword ? `%${q.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  const where = and(
    eq(followupAssignments.planId, planId),
    patientScope(scope),
    keyword
      ? or(
          ilike(patients.patientNo, keyword),
          // the name and the hospital number are identity data: matched only with `patient.pii` (a partial match
          // would spell out a masked value character by character)
          q.piiSearch ? ilike(patients.hospitalNo, keyword) : undefined,
          q.piiSearch ? ilike(patients.name, keyword) : undefined,
        )
      : undefined,
  );
  const records = await ex
    .select({
      id: followupAssignments.id,
      planId: followupAssignments.planId,
      patientId: patients.id,
      patientNo: patients.patientNo,
      patientName: patients.name,
      centerName: centers.name,
      source: followupAssignments.source,
      status: followupAssignments.status,
      anchorDate: followupAssignments.anchorDate,
      createdAt: followupAssignments.createdAt,
      tasksDone: sql<number>`(select count(*)::int from ${followupTasks} t
        where t.assignment_id = ${followupAssignments.id} and t.status = 'done')`,
      tasksTotal: sql<number>`(select count(*)::int from ${followupTasks} t
        where t.assignment_id = ${followupAssignments.id} and t.status <> 'cancelled')`,
    })
    .from(followupAssignments)
    .innerJoin(patients, eq(patients.id, followupAssignments.patientId))
    .innerJoin(centers, eq(centers.id, patients.centerId))
    .where(where)
    .orderBy(desc(followupAssignments.createdAt), asc(patients.seq))
    .limit(q.size)
    .offset((q.current - 1) * q.size);
  const total = await pageTotal({ offset: (q.current - 1) * q.size, size: q.size, rows: records.length }, async () => {
    const [c] = await ex
      .select({ n: sql<number>`count(*)::int` })
      .from(followupAssignments)
      .innerJoin(patients, eq(patients.id, followupAssignments.patientId))
      .where(where);
    return c?.n ?? 0;
  });
  return { records, total };
}
