import type { z } from 'zod';
import type {
  AssignmentVO,
  assignmentAddRequest,
  assignmentPageRequest,
  assignmentRemoveRequest,
} from '@registry/shared/contracts/followup';
import { PERMISSIONS } from '@registry/shared/permissions';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { audit, type AuditContext } from '../../plugins/audit';
import type { AuthContext } from '../auth/session.service';
import { requireProjectScope, type ProjectScope } from '../../domain/scope/project-scope';
import { presentAssignment } from './followup-plan.presenter';
import { PLAN_MESSAGES as M } from './followup-plan.messages';
import { lockPlan } from './followup-plan.repository';
import {
  assignmentsOf,
  insertAssignments,
  pageAssignments,
  setAssignmentsStatus,
  visiblePatients,
} from './followup-assignment.repository';
import { cancelOpenTasks } from './followup-sync.repository';
import { syncPlanOf, visiblePlan } from './followup-plan-spec';
import { reconcilePlan } from './followup-sync';

type AssignmentPageInput = z.output<typeof assignmentPageRequest>;
type AssignmentAddInput = z.output<typeof assignmentAddRequest>;
type AssignmentRemoveInput = z.output<typeof assignmentRemoveRequest>;

export type FollowupAssignmentService = ReturnType<typeof createFollowupAssignmentService>;

/** A plan's patients: the page, assignment by hand (tasks generated at once) and removal (open tasks cancelled). */
export function createFollowupAssignmentService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  const hasPii = (scope: ProjectScope) => scope.permissions.includes(PERMISSIONS.patientPii);

  return {
    async assignmentPage(auth: AuthContext, q: AssignmentPageInput) {
      const scope = await requireProjectScope(db, auth);
      const plan = await visiblePlan(db, scope, q.planId);
      const pii = hasPii(scope);
      const { records, total } = await pageAssignments(db, scope, plan.id, {
        keyword: q.keyword || undefined,
        piiSearch: pii,
        current: q.current,
        size: q.size,
      });
      return {
        records: records.map((r): AssignmentVO => presentAssignment(r, pii)),
        total,
        current: q.current,
        size: q.size,
      };
    },

    async assignmentAdd(auth: AuthContext, input: AssignmentAddInput, ctx: AuditContext) {
      const scope = await requireProjectScope(db, auth);
      const now = clock.now();
      const ids = [...new Set(input.patientIds.map((x) => x.toLowerCase()))];
      return db.transaction(async (tx) => {
        const found = await visiblePlan(tx, scope, input.planId);
        await lockPlan(tx, found.id);
        const row = await visiblePlan(tx, scope, input.planId);
        if (row.status !== 'active') throw new AppError(409, M.notActive);
        const people = await visiblePatients(tx, scope, ids);
        // All or nothing: a patient outside the scope answers like a missing one.
        if (people.length !== ids.length) throw new AppError(404, M.patientNotFound);
        const outside = people.filter((p) => row.projectId !== scope.rootProjectId && p.subProjectId !== row.projectId);
        if (outside.length > 0) throw new AppError(404, M.patientNotFound);
        const existing = new Map((await assignmentsOf(tx, row.id, ids)).map((a) => [a.patientId, a]));
        const followable = people.filter((p) => p.status !== 'deceased' && p.lostAt === null);
        const resume = followable.flatMap((p) => {
          const a = existing.get(p.id);
          return a && a.status === 'stopped' ? [a.id] : [];
        });
        const fresh = followable.filter((p) => !existing.has(p.id));
        await setAssignmentsStatus(tx, resume, { status: 'active', stoppedReason: null, at: now });
        await insertAssignments(
          tx,
          fresh.map((p) => ({
            tenantId: scope.tenantId,
            projectId: row.projectId,
            planId: row.id,
            patientId: p.id,
            source: 'manual' as const,
            status: 'active' as const,
            createdBy: scope.userId,
            createdAt: now,
            updatedAt: now,
          })),
        );
        const touched = [
          ...fresh.map((p) => p.id),
          ...followable.filter((p) => existing.get(p.id)?.status === 'stopped').map((p) => p.id),
        ];
        const r = await reconcilePlan(tx, syncPlanOf(row), {
          mode: 'anchor',
          patientIds: touched,
          userId: scope.userId,
          at: now,
        });
        const result = {
          assigned: touched.length,
          tasksCreated: r.tasksCreated,
          waitingForAnchor: r.waitingForAnchor,
          stopped: 0,
          skipped: ids.length - touched.length,
        };
        await audit(
          tx,
          ctx,
          {
            action: 'followup_assignment.add',
            entityType: 'followup_plan',
            entityId: row.id,
            newValue: { projectId: row.projectId, patientIds: touched, ...result },
          },
          now,
        );
        return result;
      });
    },

    async assignmentRemove(auth: AuthContext, input: AssignmentRemoveInput, ctx: AuditContext) {
      const scope = await requireProjectScope(db, auth);
      const now = clock.now();
      const ids = [...new Set(input.patientIds.map((x) => x.toLowerCase()))];
      return db.transaction(async (tx) => {
        const found = await visiblePlan(tx, scope, input.planId);
        await lockPlan(tx, found.id);
        const people = await visiblePatients(tx, scope, ids);
        if (people.length !== ids.length) throw new AppError(404, M.patientNotFound);
        const active = (await assignmentsOf(tx, found.id, ids)).filter((a) => a.status === 'active');
        await setAssignmentsStatus(
          tx,
          active.map((a) => a.id),
          { status: 'stopped', stoppedReason: input.reason, at: now },
        );
        const patientIds = active.map((a) => a.patientId);
        const cancelled =
          patientIds.length > 0
            ? (
                await cancelOpenTasks(tx, { planId: found.id, patientIds }, input.reason, {
                  userId: scope.userId,
                  at: now,
                })
              ).length
            : 0;
        await audit(
          tx,
          ctx,
          {
            action: 'followup_assignment.remove',
            entityType: 'followup_plan',
            entityId: found.id,
            newValue: { projectId: found.projectId, patientIds, tasksCancelled: cancelled },
            reason: input.reason,
          },
          now,
        );
        return { count: patientIds.length };
      });
    },
  };
}
