import type { z } from 'zod';
import type {
  PlanApplyResponse,
  planStopRequest,
  planUpdateRequest,
  PlanVO,
} from '@registry/shared/contracts/followup';
import { shanghaiDate } from '@registry/shared/followup/schedule';
import type { Db, Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { audit, type AuditContext } from '../../plugins/audit';
import type { AuthContext } from '../auth/session.service';
import { createDefinitionCache } from '../../domain/crf/definition-cache';
import { requireProjectScope, type ProjectScope } from '../../domain/scope/project-scope';
import { presentPlan } from './followup-plan.presenter';
import { PLAN_MESSAGES as M, PLAN_STOPPED_REASON } from './followup-plan.messages';
import {
  insertPlanRow,
  insertVisitRows,
  listPlanRows,
  lockPlan,
  planCounts,
  planNameTaken,
  planUsage,
  softDeleteVisitRows,
  updatePlanRow,
  updateVisitRow,
  visitsOf,
  type PlanRow,
} from './followup-plan.repository';
import { stopAllAssignments } from './followup-assignment.repository';
import { cancelOpenTasks } from './followup-sync.repository';
import {
  anchorLabelOf,
  checkPlan,
  planValues,
  publishedForms,
  syncPlanOf,
  timing,
  visiblePlan,
  visitValues,
  type PlanInput,
} from './followup-plan-spec';
import { applyPlanRule, reconcilePlan } from './followup-sync';

export { PLAN_MESSAGES, PLAN_STOPPED_REASON } from './followup-plan.messages';

type UpdateInput = z.output<typeof planUpdateRequest>;
type StopInput = z.output<typeof planStopRequest>;

export type FollowupPlanService = ReturnType<typeof createFollowupPlanService>;

/**
 * Follow-up plans and their visits: list, detail, create, update (with the reschedule of open tasks), activate and
 * apply (the rule run over the project), stop and remove. A plan's patients are `followup-assignment.service.ts`.
 */
export function createFollowupPlanService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  const definitions = createDefinitionCache();
  const today = () => shanghaiDate(clock.now());

  async function present(ex: Executor, scope: ProjectScope, rows: PlanRow[]): Promise<PlanVO[]> {
    const ids = rows.map((r) => r.id);
    const [visits, counts, forms] = await Promise.all([
      visitsOf(ex, ids),
      planCounts(ex, ids, today()),
      publishedForms(ex, definitions, scope),
    ]);
    return rows.map((row) =>
      presentPlan(
        row,
        visits.filter((v) => v.planId === row.id),
        counts.get(row.id),
        anchorLabelOf(row.anchor, forms),
      ),
    );
  }

  /** The rule over every patient of the plan's project (auto plans), then the tasks of all its assignments. */
  async function run(
    tx: Executor,
    scope: ProjectScope,
    row: PlanRow,
    at: Date,
  ): Promise<{ result: PlanApplyResponse; audited: Record<string, number> }> {
    const r = await applyPlanRule(tx, syncPlanOf(row), { userId: scope.userId, at });
    const result = {
      assigned: r.assigned,
      tasksCreated: r.tasksCreated,
      waitingForAnchor: r.waitingForAnchor,
      stopped: r.stopped,
    };
    return {
      result,
      audited: { ...result, tasksCancelled: r.tasksCancelledByRule, tasksReopened: r.tasksReopened },
    };
  }

  async function nameFree(scope: ProjectScope, name: string, exceptId?: string) {
    if (await planNameTaken(db, scope.projectId, name, exceptId))
      throw new AppError(409, M.nameTaken, [{ path: 'name', message: M.nameTaken }]);
  }

  /** A concurrent create or rename took the name first (the unique index). */
  async function onNameClash<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      const code = (err as { code?: string }).code ?? (err as { cause?: { code?: string } }).cause?.code;
      if (code === '23505') throw new AppError(409, M.nameTaken, [{ path: 'name', message: M.nameTaken }]);
      throw err;
    }
  }

  return {
    async list(auth: AuthContext): Promise<PlanVO[]> {
      const scope = await requireProjectScope(db, auth);
      return present(db, scope, await listPlanRows(db, scope.tenantId, scope.projectId));
    },

    async detail(auth: AuthContext, id: string): Promise<PlanVO> {
      const scope = await requireProjectScope(db, auth);
      const [vo] = await present(db, scope, [await visiblePlan(db, scope, id)]);
      if (!vo) throw new AppError(404, M.notFound);
      return vo;
    },

    async create(auth: AuthContext, input: PlanInput, ctx: AuditContext): Promise<PlanVO> {
      const scope = await requireProjectScope(db, auth);
      const spec = await checkPlan(db, definitions, scope, input);
      await nameFree(scope, spec.name);
      const now = clock.now();
      const id = await onNameClash(() =>
        db.transaction(async (tx) => {
          const planId = await insertPlanRow(tx, {
            tenantId: scope.tenantId,
            projectId: scope.projectId,
            ...planValues(spec),
            status: 'draft',
            createdBy: scope.userId,
            createdAt: now,
            updatedBy: scope.userId,
            updatedAt: now,
          });
          await insertVisitRows(
            tx,
            spec.visits.map((v, i) => visitValues(scope.tenantId, planId, v, i + 1)),
          );
          await audit(
            tx,
            ctx,
            {
              action: 'followup_plan.create',
              entityType: 'followup_plan',
              entityId: planId,
              newValue: { projectId: scope.projectId, ...planValues(spec), visits: spec.visits },
            },
            now,
          );
          return planId;
        }),
      );
      return this.detail(auth, id);
    },

    async update(auth: AuthContext, input: UpdateInput, ctx: AuditContext): Promise<PlanVO> {
      const scope = await requireProjectScope(db, auth);
      const before = await visiblePlan(db, scope, input.id);
      if (before.rowVersion !== input.rowVersion) throw new AppError(409, M.stale);
      const spec = await checkPlan(db, definitions, scope, input);
      await nameFree(scope, spec.name, before.id);
      const oldVisits = await visitsOf(db, [before.id]);
      const byId = new Map(oldVisits.map((v) => [v.id, v]));
      // A periodic plan's generated visits keep the ids of the visits at their position.
      if (spec.period) spec.visits.forEach((v, k) => (v.id = oldVisits[k]?.id));
      const issues = spec.visits.flatMap((v, i) =>
        v.id && !byId.has(v.id) ? [{ path: `visits.${i}.id`, message: M.visitNotFound }] : [],
      );
      if (issues.length > 0) throw new AppError(400, M.visitNotFound, issues);
      const kept = new Set(spec.visits.flatMap((v) => (v.id ? [v.id] : [])));
      const removed = oldVisits.filter((v) => !kept.has(v.id));
      const added = spec.visits.filter((v) => !v.id);
      const scheduleChanged =
        before.kind !== spec.kind ||
        JSON.stringify(before.kind === 'relative' ? before.anchor : null) !==
          JSON.stringify(spec.kind === 'relative' ? spec.anchor : null) ||
        removed.length > 0 ||
        added.length > 0 ||
        spec.visits.some((v) => {
          const old = v.id ? byId.get(v.id) : undefined;
          return old !== undefined && timing(old) !== timing(v);
        });
      const usage = await planUsage(db, before.id);
      if (usage.assignments && scheduleChanged && input.reschedule === undefined)
        throw new AppError(400, M.rescheduleRequired, [{ path: 'reschedule', message: M.rescheduleRequired }]);
      const now = clock.now();
      await onNameClash(() =>
        db.transaction(async (tx) => {
          await lockPlan(tx, before.id);
          const updated = await updatePlanRow(tx, before.id, input.rowVersion, {
            ...planValues(spec),
            updatedBy: scope.userId,
            updatedAt: now,
          });
          if (!updated) throw new AppError(409, M.stale);
          await softDeleteVisitRows(
            tx,
            removed.map((v) => v.id),
            now,
          );
          for (const [i, v] of spec.visits.entries())
            if (v.id) await updateVisitRow(tx, v.id, visitValues(scope.tenantId, before.id, v, i + 1));
          await insertVisitRows(
            tx,
            spec.visits.flatMap((v, i) => (v.id ? [] : [visitValues(scope.tenantId, before.id, v, i + 1)])),
          );
          let effect: Awaited<ReturnType<typeof reconcilePlan>> | null = null;
          if (before.status === 'active' && usage.assignments && scheduleChanged) {
            const plan = syncPlanOf({ ...before, ...planValues(spec) } as PlanRow);
            effect = await reconcilePlan(tx, plan, {
              mode: input.reschedule ? 'reschedule' : 'keep',
              userId: scope.userId,
              at: now,
            });
          }
          await audit(
            tx,
            ctx,
            {
              action: 'followup_plan.update',
              entityType: 'followup_plan',
              entityId: before.id,
              oldValue: {
                rowVersion: before.rowVersion,
                name: before.name,
                kind: before.kind,
                anchor: before.anchor,
                period: before.period,
                assignMode: before.assignMode,
                rule: before.rule,
                visits: oldVisits.map((v) => ({ id: v.id, name: v.name, timing: timing(v) })),
              },
              newValue: {
                rowVersion: updated.rowVersion,
                ...planValues(spec),
                visits: spec.visits.map((v) => ({ id: v.id ?? null, name: v.name, timing: timing(v) })),
                scheduleChanged,
                reschedule: input.reschedule ?? null,
                ...(effect ?? {}),
              },
            },
            now,
          );
        }),
      );
      return this.detail(auth, before.id);
    },

    async activate(auth: AuthContext, id: string, ctx: AuditContext): Promise<PlanApplyResponse> {
      const scope = await requireProjectScope(db, auth);
      const now = clock.now();
      return db.transaction(async (tx) => {
        const found = await visiblePlan(tx, scope, id);
        await lockPlan(tx, found.id);
        const row = await visiblePlan(tx, scope, id);
        if (row.status === 'active') throw new AppError(409, M.alreadyActive);
        if ((await visitsOf(tx, [row.id])).length === 0) throw new AppError(400, M.visitsRequired);
        await updatePlanRow(tx, row.id, null, { status: 'active', updatedBy: scope.userId, updatedAt: now });
        const { result, audited } = await run(tx, scope, { ...row, status: 'active' }, now);
        await audit(
          tx,
          ctx,
          {
            action: 'followup_plan.activate',
            entityType: 'followup_plan',
            entityId: row.id,
            oldValue: { status: row.status },
            newValue: { status: 'active', ...audited },
          },
          now,
        );
        return result;
      });
    },

    async apply(auth: AuthContext, id: string, ctx: AuditContext): Promise<PlanApplyResponse> {
      const scope = await requireProjectScope(db, auth);
      const now = clock.now();
      return db.transaction(async (tx) => {
        const found = await visiblePlan(tx, scope, id);
        await lockPlan(tx, found.id);
        const row = await visiblePlan(tx, scope, id);
        if (row.status !== 'active') throw new AppError(409, M.notActive);
        const { result, audited } = await run(tx, scope, row, now);
        await audit(
          tx,
          ctx,
          { action: 'followup_plan.apply', entityType: 'followup_plan', entityId: row.id, newValue: audited },
          now,
        );
        return result;
      });
    },

    async stop(auth: AuthContext, input: StopInput, ctx: AuditContext): Promise<{ count: number }> {
      const scope = await requireProjectScope(db, auth);
      const now = clock.now();
      return db.transaction(async (tx) => {
        const found = await visiblePlan(tx, scope, input.id);
        await lockPlan(tx, found.id);
        const row = await visiblePlan(tx, scope, input.id);
        if (row.status !== 'active') throw new AppError(409, M.notActive);
        await updatePlanRow(tx, row.id, null, { status: 'stopped', updatedBy: scope.userId, updatedAt: now });
        const cancelled = input.cancelOpenTasks
          ? (await cancelOpenTasks(tx, { planId: row.id }, PLAN_STOPPED_REASON, { userId: scope.userId, at: now }))
              .length
          : 0;
        await audit(
          tx,
          ctx,
          {
            action: 'followup_plan.stop',
            entityType: 'followup_plan',
            entityId: row.id,
            oldValue: { status: row.status },
            newValue: { status: 'stopped', cancelOpenTasks: input.cancelOpenTasks, tasksCancelled: cancelled },
          },
          now,
        );
        return { count: cancelled };
      });
    },

    async remove(auth: AuthContext, id: string, ctx: AuditContext): Promise<{ count: number }> {
      const scope = await requireProjectScope(db, auth);
      const now = clock.now();
      return db.transaction(async (tx) => {
        const found = await visiblePlan(tx, scope, id);
        await lockPlan(tx, found.id);
        const row = await visiblePlan(tx, scope, id);
        const usage = await planUsage(tx, row.id);
        // a draft never generated a task; any other plan only while it has none
        if (usage.tasks) throw new AppError(409, M.inUse);
        await updatePlanRow(tx, row.id, null, { deletedAt: now, updatedBy: scope.userId, updatedAt: now });
        await stopAllAssignments(tx, row.id, '随访计划已删除', now);
        await audit(
          tx,
          ctx,
          {
            action: 'followup_plan.delete',
            entityType: 'followup_plan',
            entityId: row.id,
            oldValue: { name: row.name, status: row.status },
            newValue: { deleted: true },
          },
          now,
        );
        return { count: 1 };
      });
    },
  };
}
