import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { PlanAnchor, PlanRule } from '@registry/shared/contracts/followup';
import { executePrepared, type Executor } from '../../db/client';
import { formRecords, patients } from '../../db/schema';
import type { SyncPlan } from './followup-plan.repository';

/**
 * Task generation (the sets of `followup-sync.ts`): what a sync reads of plans, patients and assignments, and the
 * set-based writes of tasks and anchor dates. The rule's own SQL and the assignments it writes are
 * `followup-assignment.repository.ts`.
 */

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
  const { rows } = await executePrepared<{ hit: boolean }>(
    ex,
    sql`
    select exists (
      select 1 from followup_plans
      where tenant_id = ${tenantId} and project_id in (${sql.join(
        projectIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})
        and status = 'active' and deleted_at is null
        and (anchor ->> 'formKey' = ${formKey} or rule -> 'field' ->> 'formKey' = ${formKey})
    ) as hit`,
  );
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
