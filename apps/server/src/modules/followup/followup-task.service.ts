import type { z } from 'zod';
import type {
  FollowupSummary,
  TaskCounts,
  TaskListItem,
  taskAssignRequest,
  taskCountsRequest,
  taskExportRequest,
  taskPageRequest,
} from '@registry/shared/contracts/followup';
import { addDays, shanghaiDate } from '@registry/shared/followup/schedule';
import { PERMISSIONS } from '@registry/shared/permissions';
import type { Db, Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { PhiKeys } from '../../lib/phi-crypto';
import { audit, type AuditContext } from '../../plugins/audit';
import type { AuthContext } from '../auth/session.service';
import { EXCEL_CONTENT_TYPE } from '../database-io/excel';
import { requireProjectScope, type ProjectScope } from '../../domain/scope/project-scope';
import { presentTask, worklistWorkbook } from './followup-task.presenter';
import {
  countTasks,
  activeMembership,
  listTasks,
  pageTasks,
  setOwner,
  summaryCounts,
  visibleTaskStates,
  type WorklistFilter,
} from './followup-task.repository';

export const FOLLOWUP_TASK_MESSAGES = {
  notFound: '随访任务不存在',
  ownerNotMember: '负责人须为项目成员',
  ownerOtherCenter: '负责人只能负责其所在中心的患者',
  closed: '随访任务已关闭',
  stale: '随访任务已被他人修改，请刷新后重试',
} as const;
const M = FOLLOWUP_TASK_MESSAGES;

/** At most this many rows in an export. */
export const TASK_EXPORT_MAX_ROWS = 10_000;

type PageInput = z.output<typeof taskPageRequest>;
type FilterInput = z.output<typeof taskCountsRequest>;
type ExportInput = z.output<typeof taskExportRequest>;
type AssignInput = z.output<typeof taskAssignRequest>;

export type FollowupTaskService = ReturnType<typeof createFollowupTaskService>;

export const hasPii = (scope: ProjectScope) => scope.permissions.includes(PERMISSIONS.patientPii);

/**
 * An answer carrying unmasked identity data (names, phones) of these patients to a `patient.pii` holder: the
 * `patient.pii_read` event, written in the read's transaction (fail closed, as the patient list does).
 */
export async function auditPiiRead(
  tx: Executor,
  ctx: AuditContext,
  patientIds: readonly string[],
  via: string,
  at: Date,
): Promise<void> {
  const ids = [...new Set(patientIds)];
  if (ids.length === 0) return;
  await audit(
    tx,
    ctx,
    {
      action: 'patient.pii_read',
      entityType: 'patient',
      entityId: ids.length === 1 ? (ids[0] ?? null) : null,
      newValue: { patientIds: ids, via },
    },
    at,
  );
}

/** The contract's filter as the repository takes it (`me` = the caller, `none` = unassigned). */
function worklistFilter(scope: ProjectScope, q: FilterInput & { state?: PageInput['state'] }): WorklistFilter {
  return {
    ownerId: q.owner === 'me' ? scope.userId : q.owner === 'none' ? null : q.owner,
    centerId: q.centerId,
    planId: q.planId,
    visitId: q.visitId,
    patientId: q.patientId,
    keyword: q.keyword || undefined,
    piiSearch: hasPii(scope),
    dueFrom: q.dueFrom,
    dueTo: q.dueTo,
    state: q.state,
  };
}

/** The follow-up worklist (`/followup/list`) and the home page's figures. */
export function createFollowupTaskService(deps: {
  db: Db;
  /** Where the export reads its rows: the read replica when there is one (ADR 0015), else `db`. */
  readDb?: Db;
  clock: Clock;
  keys: PhiKeys;
}) {
  const { db, clock, keys } = deps;
  const readDb = deps.readDb ?? db;
  const today = () => shanghaiDate(clock.now());

  return {
    async page(auth: AuthContext, q: PageInput, ctx: AuditContext) {
      const scope = await requireProjectScope(db, auth);
      const pii = hasPii(scope);
      const { records, total } = await db.transaction(async (tx) => {
        const found = await pageTasks(tx, scope, worklistFilter(scope, q), today(), q);
        if (pii)
          await auditPiiRead(
            tx,
            ctx,
            found.records.map((r) => r.patientId),
            'followup/task/page',
            clock.now(),
          );
        return found;
      });
      return { records: records.map((r) => presentTask(r, keys, pii)), total, current: q.current, size: q.size };
    },

    async counts(auth: AuthContext, q: FilterInput): Promise<TaskCounts> {
      const scope = await requireProjectScope(db, auth);
      return countTasks(db, scope, worklistFilter(scope, q), today());
    },

    /** Sets the owner of the open tasks among the ids (closed ones skipped); every id must be visible (else 404). */
    async assign(auth: AuthContext, input: AssignInput, ctx: AuditContext): Promise<{ count: number }> {
      const scope = await requireProjectScope(db, auth);
      const ids = [...new Set(input.taskIds.map((x) => x.toLowerCase()))];
      const found = await visibleTaskStates(db, scope, ids);
      if (found.length !== ids.length) throw new AppError(404, M.notFound);
      if (input.ownerId !== null) {
        const membership = await activeMembership(db, scope, input.ownerId);
        if (!membership) throw new AppError(400, M.ownerNotMember, [{ path: 'ownerId', message: M.ownerNotMember }]);
        // a member of one center sees only that center's patients: they cannot work another center's task
        if (membership.centerId && found.some((t) => t.status === 'open' && t.centerId !== membership.centerId))
          throw new AppError(400, M.ownerOtherCenter, [{ path: 'ownerId', message: M.ownerOtherCenter }]);
      }
      const before = new Map(found.map((t) => [t.id, t.ownerId]));
      const now = clock.now();
      const changed = await db.transaction(async (tx) => {
        const rows = await setOwner(tx, scope.tenantId, ids, input.ownerId, now);
        for (const row of rows)
          await audit(
            tx,
            ctx,
            {
              action: 'followup_task.assign',
              entityType: 'followup_task',
              entityId: row.id,
              oldValue: { ownerId: before.get(row.id) ?? null },
              newValue: { ownerId: input.ownerId, rowVersion: row.rowVersion },
            },
            now,
          );
        return rows.length;
      });
      return { count: changed };
    },

    /**
     * The filtered worklist as an Excel file, at most TASK_EXPORT_MAX_ROWS rows, audited as an export. The rows come
     * from the read replica (a task changed a moment ago may show its state of a moment ago: replication lag); the
     * scope (who may see what) and the audit event from the primary.
     */
    async export(auth: AuthContext, q: ExportInput, ctx: AuditContext) {
      const scope = await requireProjectScope(db, auth);
      const pii = hasPii(scope);
      const day = today();
      const filter = worklistFilter(scope, q);
      const now = clock.now();
      const found = (await listTasks(readDb, scope, filter, day, TASK_EXPORT_MAX_ROWS)).map((r) =>
        presentTask(r, keys, pii),
      );
      const rows: TaskListItem[] = await db.transaction(async (tx) => {
        // the keyword may be a patient's name or phone: the permanent trail says only that one was used
        const { piiSearch: _n, keyword, ...rest } = filter;
        const shown = keyword ? { ...rest, keyword: '（已隐去）' } : rest;
        await audit(
          tx,
          ctx,
          {
            action: 'followup_task.export',
            entityType: 'export',
            entityId: null,
            newValue: { projectId: scope.projectId, filter: shown, rows: found.length, masked: !pii },
          },
          now,
        );
        return found;
      });
      return {
        fileName: `随访列表-${day}.xlsx`,
        contentType: EXCEL_CONTENT_TYPE,
        body: await worklistWorkbook(rows),
      };
    },

    /** The home page's figures over the caller's scope (`mine*`: tasks the caller owns). */
    async summary(auth: AuthContext): Promise<FollowupSummary> {
      const scope = await requireProjectScope(db, auth);
      const day = today();
      const row = await summaryCounts(db, scope, { today: day, week: addDays(day, 6), yearAgo: addDays(day, -364) });
      const done = row?.yearDone ?? 0;
      const missed = row?.yearMissed ?? 0;
      return {
        dueToday: row?.dueToday ?? 0,
        due: row?.due ?? 0,
        dueThisWeek: row?.dueThisWeek ?? 0,
        overdue: row?.overdue ?? 0,
        mineDue: row?.mineDue ?? 0,
        mineOverdue: row?.mineOverdue ?? 0,
        completionRate: done + missed > 0 ? done / (done + missed) : null,
      };
    },
  };
}
