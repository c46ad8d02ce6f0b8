import { scheduleVisit, type IsoDate } from '@registry/shared/followup/schedule';
import type { Executor } from '../../db/client';
import { audit, type AuditContext } from '../../plugins/audit';
import type { PatientFollowupSync } from '../../domain/patient-change/followup-sync';
import { anchorDate, formsRead, ruleMatches, type PatientFacts } from './followup-rule';
import { visitsOf, type SyncPlan } from './followup-plan.repository';
import {
  assignByRule,
  assignmentsOfPatient,
  insertAssignments,
  resumeRuleMatches,
  setAssignmentsStatus,
  stopAssignmentsOfPatient,
  stopRuleMismatches,
} from './followup-assignment.repository';
import {
  cancelOpenTasks,
  activePlanReadsForm,
  activePlansOfPatient,
  assignmentStates,
  insertTasks,
  patientForSync,
  patientFormValues,
  tasksOfAssignments,
  updateAssignmentAnchors,
  setTaskDates,
  type NewTask,
  type PatientSyncRow,
  type TaskStateRow,
} from './followup-sync.repository';

/**
 * Task generation: from a plan's visits and each assignment's anchor date to the patient's tasks, with the schedule
 * arithmetic of `@registry/shared/followup/schedule`. Everything here runs inside the caller's transaction.
 *
 * - Missing tasks are inserted (owner = the plan's default owner) for patients who are alive, not lost and not deleted.
 * - Open tasks move with their anchor: when the assignment's anchor date changed (mode `anchor`), or always (mode
 *   `reschedule`, a plan edit that asked for it). Done, lost and cancelled tasks never change.
 * - Mode `reschedule` also cancels the open tasks of visits removed from the plan.
 * - A task cancelled because its rule assignment stopped (`RULE_MISMATCH_REASON`) is re-opened with new dates when the
 *   assignment is active again (the unique (assignment, visit) row is reused, never inserted twice).
 */

export const REMOVED_VISIT_REASON = '访视已从计划中删除';
/** Why a rule assignment stopped and its open tasks were cancelled: the patient no longer matches the plan's rule. */
export const RULE_MISMATCH_REASON = '不再符合分配规则';
/** Why the open tasks of a deceased patient were cancelled (as `followup/patient/death`). */
export const DECEASED_REASON = '患者已死亡';
/** Why the open tasks and assignments of a deleted patient were cancelled and stopped. */
export const DELETED_REASON = '患者已删除';

export type ReconcileMode = 'anchor' | 'reschedule' | 'keep';

export type ReconcileResult = {
  tasksCreated: number;
  tasksRescheduled: number;
  tasksCancelled: number;
  /** Tasks cancelled by a rule mismatch, re-opened because the assignment is active again. */
  tasksReopened: number;
  /** Active assignments of a relative plan without an anchor date. */
  waitingForAnchor: number;
};

const sameDates = (t: TaskStateRow, d: { dueDate: string; windowStart: string; windowEnd: string }) =>
  t.dueDate === d.dueDate && t.windowStart === d.windowStart && t.windowEnd === d.windowEnd;

/** Brings the tasks of a plan's active assignments (of these patients only, when given) in line with its visits. */
export async function reconcilePlan(
  tx: Executor,
  plan: SyncPlan,
  opts: { mode: ReconcileMode; patientIds?: string[]; userId: string | null; at: Date },
): Promise<ReconcileResult> {
  const visits = await visitsOf(tx, [plan.id], true);
  const live = visits.filter((v) => !v.deletedAt);
  const removed = new Set(visits.filter((v) => v.deletedAt).map((v) => v.id));
  const states = await assignmentStates(tx, plan, opts.patientIds);
  const tasks = await tasksOfAssignments(
    tx,
    plan.id,
    states.map((s) => s.id),
  );
  const byAssignment = new Map<string, Map<string, TaskStateRow>>();
  for (const t of tasks) {
    const m = byAssignment.get(t.assignmentId) ?? new Map<string, TaskStateRow>();
    m.set(t.visitId, t);
    byAssignment.set(t.assignmentId, m);
  }
  const anchor = plan.kind === 'relative' ? plan.anchor : null;
  const inserts: NewTask[] = [];
  const updates: { id: string; dueDate: string; windowStart: string; windowEnd: string }[] = [];
  const reopens: { id: string; dueDate: string; windowStart: string; windowEnd: string }[] = [];
  const cancels: string[] = [];
  const anchors: { id: string; anchor: IsoDate | null }[] = [];
  let waitingForAnchor = 0;
  for (const s of states) {
    const facts: PatientFacts = {
      subProjectId: null,
      enrolDate: s.enrolDate,
      values: new Map(anchor?.type === 'field' ? [[anchor.formKey, { [anchor.fieldKey]: s.fieldValue }]] : []),
    };
    const date = anchorDate(anchor, facts);
    const anchorChanged = date !== s.storedAnchor;
    if (anchorChanged) anchors.push({ id: s.id, anchor: date });
    if (plan.kind === 'relative' && !date) waitingForAnchor++;
    const own = byAssignment.get(s.id) ?? new Map<string, TaskStateRow>();
    for (const visit of live) {
      const dates = scheduleVisit(
        {
          offset: visit.offset,
          offsetUnit: visit.offsetUnit,
          fixedDate: visit.fixedDate,
          windowBefore: visit.windowBefore,
          windowAfter: visit.windowAfter,
        },
        date,
      );
      if (!dates) continue;
      const existing = own.get(visit.id);
      if (!existing) {
        if (s.eligible) inserts.push({ assignmentId: s.id, patientId: s.patientId, visitId: visit.id, ...dates });
      } else if (existing.status === 'cancelled' && existing.closedReason === RULE_MISMATCH_REASON) {
        if (s.eligible) reopens.push({ id: existing.id, ...dates });
      } else if (
        existing.status === 'open' &&
        (opts.mode === 'reschedule' || (opts.mode === 'anchor' && anchorChanged)) &&
        !sameDates(existing, dates)
      )
        updates.push({ id: existing.id, ...dates });
    }
    if (opts.mode === 'reschedule')
      for (const t of own.values()) if (t.status === 'open' && removed.has(t.visitId)) cancels.push(t.id);
  }
  if (anchors.length > 0) await updateAssignmentAnchors(tx, anchors, opts.at);
  const tasksRescheduled = updates.length > 0 ? await setTaskDates(tx, updates, opts.at, { reopen: false }) : 0;
  const tasksCancelled =
    cancels.length > 0
      ? (await cancelOpenTasks(tx, { ids: cancels }, REMOVED_VISIT_REASON, { userId: opts.userId, at: opts.at })).length
      : 0;
  const tasksReopened = reopens.length > 0 ? await setTaskDates(tx, reopens, opts.at, { reopen: true }) : 0;
  const tasksCreated = inserts.length > 0 ? await insertTasks(tx, plan, inserts, opts.at) : 0;
  return { tasksCreated, tasksRescheduled, tasksCancelled, tasksReopened, waitingForAnchor };
}

export type PlanRuleResult = ReconcileResult & {
  /** New rule assignments plus rule assignments resumed because the patient matches again. */
  assigned: number;
  /** Rule assignments stopped because the patient no longer matches (`不再符合分配规则`). */
  stopped: number;
  /** Open tasks of the stopped assignments, cancelled with the same reason. */
  tasksCancelledByRule: number;
};

/**
 * `plan/activate` and `plan/apply`: the rule step of `syncPatientFollowup` over every patient of the plan at once
 * (set-based, the rule as SQL), then the tasks of all its active assignments. For an `auto` plan:
 * - an active rule assignment whose patient left the plan's project or no longer matches the rule stops and its open
 *   tasks are cancelled (`不再符合分配规则`); done and lost tasks never change;
 * - a rule assignment stopped for that reason whose patient matches again (alive, not lost) resumes, and
 *   `reconcilePlan` re-opens its cancelled tasks with fresh dates;
 * - matching patients without an assignment of the plan get one (a stopped assignment for another reason — removed
 *   by hand — stays stopped). Manual assignments are never touched by the rule.
 * A `manual` plan only reconciles its tasks. Runs inside the caller's transaction (the plan row locked).
 */
export async function applyPlanRule(
  tx: Executor,
  plan: SyncPlan,
  opts: { userId: string | null; at: Date },
): Promise<PlanRuleResult> {
  let assigned = 0;
  let stopped: string[] = [];
  let tasksCancelledByRule = 0;
  if (plan.assignMode === 'auto') {
    stopped = await stopRuleMismatches(tx, plan, RULE_MISMATCH_REASON, opts.at);
    tasksCancelledByRule = (
      await cancelOpenTasks(tx, { planId: plan.id, assignmentIds: stopped }, RULE_MISMATCH_REASON, opts)
    ).length;
    assigned += (await resumeRuleMatches(tx, plan, RULE_MISMATCH_REASON, opts.at)).length;
    assigned += (await assignByRule(tx, plan, opts)).length;
  }
  const r = await reconcilePlan(tx, plan, { mode: 'anchor', userId: opts.userId, at: opts.at });
  return { ...r, assigned, stopped: stopped.length, tasksCancelledByRule };
}

export type PatientSyncResult = {
  assigned: number;
  tasksCreated: number;
  tasksRescheduled: number;
  tasksReopened: number;
  tasksCancelled: number;
  assignmentsStopped: number;
};

/**
 * A deceased patient: open tasks cancelled (`患者已死亡`); a deleted one: open tasks cancelled and active assignments
 * stopped (`患者已删除`). Done, lost and cancelled tasks never change. Audited as one `followup.sync` event.
 */
async function closePatientFollowup(
  tx: Executor,
  ctx: AuditContext & { tenantId: string },
  patient: PatientSyncRow,
  at: Date,
): Promise<PatientSyncResult | null> {
  const reason = patient.deleted ? DELETED_REASON : DECEASED_REASON;
  const key = { tenantId: ctx.tenantId, patientId: patient.id };
  const cancelled = await cancelOpenTasks(tx, key, reason, { userId: ctx.actorId, at });
  const stopped = patient.deleted ? await stopAssignmentsOfPatient(tx, key, reason, at) : [];
  if (cancelled.length === 0 && stopped.length === 0) return null;
  await audit(
    tx,
    ctx,
    {
      action: 'followup.sync',
      entityType: 'patient',
      entityId: patient.id,
      newValue: { cancelledTaskIds: cancelled, stoppedAssignmentIds: stopped, reason },
      reason,
    },
    at,
  );
  return {
    assigned: 0,
    tasksCreated: 0,
    tasksRescheduled: 0,
    tasksReopened: 0,
    tasksCancelled: cancelled.length,
    assignmentsStopped: stopped.length,
  };
}

/**
 * After a patient or one of their records changed, inside the same transaction:
 * - a deceased patient's open tasks are cancelled, a deleted patient's too and their active assignments stopped
 *   (`closePatientFollowup`); nothing else happens to them;
 * - the project's `auto` plans the patient now matches assign them (source `rule`);
 * - a rule assignment whose rule the patient no longer matches (another sub-project, another field value) stops with
 *   its open tasks cancelled (`不再符合分配规则`); when the patient matches again it resumes and those tasks re-open.
 *   Manual assignments and assignments stopped for another reason are never touched by the rule;
 * - the active assignments re-read their anchor date and re-schedule open tasks when it moved; missing tasks are
 *   created.
 * Costs two indexed queries when the project has no active plan. Audited as one `followup.sync` event when something
 * changed. Answers what it did (null: nothing to do).
 */
export async function syncPatientFollowup(
  tx: Executor,
  ctx: AuditContext,
  patientId: string,
  at: Date = new Date(),
): Promise<PatientSyncResult | null> {
  const tenantId = ctx.tenantId;
  if (!tenantId) return null;
  const patient = await patientForSync(tx, tenantId, patientId);
  if (!patient) return null;
  if (patient.deleted || patient.status === 'deceased')
    return closePatientFollowup(tx, { ...ctx, tenantId }, patient, at);
  const plans = await activePlansOfPatient(tx, tenantId, patientId);
  if (plans.length === 0) return null;
  const existing = new Map(
    (
      await assignmentsOfPatient(
        tx,
        patientId,
        plans.map((p) => p.id),
      )
    ).map((a) => [a.planId, a]),
  );
  const active = new Set([...existing.values()].filter((a) => a.status === 'active').map((a) => a.planId));
  const followable = !patient.lost;
  const inScope = (p: SyncPlan) => p.projectId === patient.projectId || p.projectId === patient.subProjectId;
  // The auto plans whose rule decides something: a new assignment, or the patient's rule assignment.
  const ruled = plans.filter((p) => {
    if (p.assignMode !== 'auto') return false;
    const a = existing.get(p.id);
    if (!a) return followable && inScope(p);
    if (a.source !== 'rule') return false;
    return a.status === 'active' || (followable && a.stoppedReason === RULE_MISMATCH_REASON);
  });
  const newlyAssigned: string[] = [];
  const resumed: { planId: string; id: string }[] = [];
  const stopped: { planId: string; id: string }[] = [];
  if (ruled.length > 0) {
    const values = await patientFormValues(tx, tenantId, patientId, [...new Set(ruled.flatMap((p) => formsRead(p)))]);
    const facts: PatientFacts = { subProjectId: patient.subProjectId, enrolDate: patient.enrolDate, values };
    for (const p of ruled) {
      const matches = inScope(p) && ruleMatches(p.rule, facts);
      const a = existing.get(p.id);
      if (!a) {
        if (matches) newlyAssigned.push(p.id);
      } else if (a.status === 'active') {
        if (!matches) stopped.push({ planId: p.id, id: a.id });
      } else if (matches) resumed.push({ planId: p.id, id: a.id });
    }
    await insertAssignments(
      tx,
      plans
        .filter((p) => newlyAssigned.includes(p.id))
        .map((p) => ({
          tenantId: p.tenantId,
          projectId: p.projectId,
          planId: p.id,
          patientId,
          source: 'rule' as const,
          status: 'active' as const,
          createdBy: ctx.actorId,
          createdAt: at,
          updatedAt: at,
        })),
    );
    await setAssignmentsStatus(
      tx,
      stopped.map((a) => a.id),
      { status: 'stopped', stoppedReason: RULE_MISMATCH_REASON, at },
    );
    await setAssignmentsStatus(
      tx,
      resumed.map((a) => a.id),
      { status: 'active', stoppedReason: null, at },
    );
    for (const id of newlyAssigned) active.add(id);
    for (const a of resumed) active.add(a.planId);
    for (const a of stopped) active.delete(a.planId);
  }
  const cancelled =
    stopped.length > 0
      ? await cancelOpenTasks(
          tx,
          { tenantId, patientId, assignmentIds: stopped.map((a) => a.id) },
          RULE_MISMATCH_REASON,
          { userId: ctx.actorId, at },
        )
      : [];
  let tasksCreated = 0;
  let tasksRescheduled = 0;
  let tasksReopened = 0;
  for (const plan of plans) {
    if (!active.has(plan.id)) continue;
    const r = await reconcilePlan(tx, plan, { mode: 'anchor', patientIds: [patientId], userId: ctx.actorId, at });
    tasksCreated += r.tasksCreated;
    tasksRescheduled += r.tasksRescheduled;
    tasksReopened += r.tasksReopened;
  }
  const changed =
    newlyAssigned.length + resumed.length + stopped.length + tasksCreated + tasksRescheduled + tasksReopened > 0;
  if (changed)
    await audit(
      tx,
      ctx,
      {
        action: 'followup.sync',
        entityType: 'patient',
        entityId: patientId,
        newValue: {
          assignedPlanIds: newlyAssigned,
          resumedPlanIds: resumed.map((a) => a.planId),
          stoppedPlanIds: stopped.map((a) => a.planId),
          tasksCreated,
          tasksRescheduled,
          tasksReopened,
          cancelledTaskIds: cancelled,
        },
        ...(stopped.length > 0 ? { reason: RULE_MISMATCH_REASON } : {}),
      },
      at,
    );
  return {
    assigned: newlyAssigned.length + resumed.length,
    tasksCreated,
    tasksRescheduled,
    tasksReopened,
    tasksCancelled: cancelled.length,
    assignmentsStopped: stopped.length,
  };
}

/**
 * True when an active plan of these projects (the record's project and its parent) reads the form (anchor or rule
 * field): only then does a record save need `syncPatientFollowup`. One indexed query.
 */
export function followupReadsForm(
  ex: Executor,
  tenantId: string,
  projectIds: string[],
  formKey: string,
): Promise<boolean> {
  return activePlanReadsForm(ex, tenantId, [...new Set(projectIds)], formKey);
}

/** The follow-up sync as the patient, patient-import and form-record services receive it from `buildApp`. */
export const patientFollowupSync: PatientFollowupSync = {
  syncPatient: syncPatientFollowup,
  readsForm: followupReadsForm,
};
