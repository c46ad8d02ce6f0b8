import { scheduleVisit, type IsoDate } from '@registry/shared/followup/schedule';
import type { Executor } from '../../db/client';
import { audit, type AuditContext } from '../../plugins/audit';
import { anchorDate, formsRead, ruleMatches, type PatientFacts } from './followup-rule';
import {
  activePlanReadsForm,
  activePlansOfPatient,
  assignmentsOfPatient,
  assignmentStates,
  cancelTasks,
  insertAssignments,
  insertTasks,
  patientForSync,
  patientFormValues,
  tasksOfAssignments,
  updateAssignmentAnchors,
  updateTaskDates,
  visitsOf,
  type NewTask,
  type SyncPlan,
  type TaskStateRow,
} from './followup-plan.repository';

/**
 * Task generation: from a plan's visits and each assignment's anchor date to the patient's tasks, with the schedule
 * arithmetic of `@registry/shared/followup/schedule`. Everything here runs inside the caller's transaction.
 *
 * - Missing tasks are inserted (owner = the plan's default owner) for patients who are alive, not lost and not deleted.
 * - Open tasks move with their anchor: when the assignment's anchor date changed (mode `anchor`), or always (mode
 *   `reschedule`, a plan edit that asked for it). Done, lost and cancelled tasks never change.
 * - Mode `reschedule` also cancels the open tasks of visits removed from the plan.
 */

export const REMOVED_VISIT_REASON = '访视已从计划中删除';

export type ReconcileMode = 'anchor' | 'reschedule' | 'keep';

export type ReconcileResult = {
  tasksCreated: number;
  tasksRescheduled: number;
  tasksCancelled: number;
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
  const tasksRescheduled = updates.length > 0 ? await updateTaskDates(tx, updates, opts.at) : 0;
  const tasksCancelled =
    cancels.length > 0 ? await cancelTasks(tx, cancels, REMOVED_VISIT_REASON, { userId: opts.userId, at: opts.at }) : 0;
  const tasksCreated = inserts.length > 0 ? await insertTasks(tx, plan, inserts, opts.at) : 0;
  return { tasksCreated, tasksRescheduled, tasksCancelled, waitingForAnchor };
}

/**
 * After a patient or one of their records changed, inside the same transaction: the project's `auto` plans the
 * patient now matches assign them; the active assignments re-read their anchor date and re-schedule open tasks when
 * it moved; missing tasks are created. Costs one indexed query when the project has no active plan. Audited as one
 * `followup.sync` event when something changed. Answers what it did (null: nothing to do).
 */
export async function syncPatientFollowup(
  tx: Executor,
  ctx: AuditContext,
  patientId: string,
  at: Date = new Date(),
): Promise<{ assigned: number; tasksCreated: number; tasksRescheduled: number } | null> {
  if (!ctx.tenantId) return null;
  const plans = await activePlansOfPatient(tx, ctx.tenantId, patientId);
  if (plans.length === 0) return null;
  const patient = await patientForSync(tx, ctx.tenantId, patientId);
  if (!patient || patient.deleted) return null;
  const existing = await assignmentsOfPatient(
    tx,
    patientId,
    plans.map((p) => p.id),
  );
  const assignedPlans = new Set(existing.map((a) => a.planId));
  const active = new Set(existing.filter((a) => a.status === 'active').map((a) => a.planId));
  const candidates = plans.filter((p) => p.assignMode === 'auto' && !assignedPlans.has(p.id));
  const newlyAssigned: string[] = [];
  if (candidates.length > 0 && patient.status !== 'deceased' && !patient.lost) {
    const values = await patientFormValues(tx, ctx.tenantId, patientId, [
      ...new Set(candidates.flatMap((p) => formsRead(p))),
    ]);
    const facts: PatientFacts = { subProjectId: patient.subProjectId, enrolDate: patient.enrolDate, values };
    const matched = candidates.filter((p) => ruleMatches(p.rule, facts));
    await insertAssignments(
      tx,
      matched.map((p) => ({
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
    for (const p of matched) {
      newlyAssigned.push(p.id);
      active.add(p.id);
    }
  }
  let tasksCreated = 0;
  let tasksRescheduled = 0;
  for (const plan of plans) {
    if (!active.has(plan.id)) continue;
    const r = await reconcilePlan(tx, plan, { mode: 'anchor', patientIds: [patientId], userId: ctx.actorId, at });
    tasksCreated += r.tasksCreated;
    tasksRescheduled += r.tasksRescheduled;
  }
  if (newlyAssigned.length > 0 || tasksCreated > 0 || tasksRescheduled > 0)
    await audit(
      tx,
      ctx,
      {
        action: 'followup.sync',
        entityType: 'patient',
        entityId: patientId,
        newValue: { assignedPlanIds: newlyAssigned, tasksCreated, tasksRescheduled },
      },
      at,
    );
  return { assigned: newlyAssigned.length, tasksCreated, tasksRescheduled };
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
