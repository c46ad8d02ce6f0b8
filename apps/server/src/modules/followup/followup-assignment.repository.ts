import { and, asc, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { PlanRule } from '@registry/shared/contracts/followup';
import type { Executor } from '../../db/client';
import { centers, followupAssignments, followupTasks, patients } from '../../db/schema';
import { patientScope } from '../../domain/scope/patient-scope.repository';
import type { ProjectScope } from '../../domain/scope/project-scope';
import { pageTotal } from '../../lib/page-total';
import type { SyncPlan } from './followup-plan.repository';

/**
 * Follow-up assignments: by the plan's rule (the rule as SQL, the same answer as `ruleMatches` in followup-rule.ts;
 * run by `followup-sync.ts`) and by hand, and the plan's patient list.
 */

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

// ---------------------------------------------------------------------------------------------------------------
// By hand, and the plan's patient list
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
