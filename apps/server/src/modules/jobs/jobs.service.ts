import type { JobAdminVO, JobListQuery, JobStatusVO } from '@registry/shared/contracts/job';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/errors';
import type { Clock } from '../../lib/clock';
import { audit, type AuditContext } from '../../plugins/audit';
import type { AuthContext } from '../auth/session.service';
import type { JobQueue } from './job-queue';
import { findJob, listJobs, type JobRow } from './jobs.repository';

const NOT_FOUND = '任务不存在';
const DEAD_SUFFIX = '__dead';

/** The message of a failed attempt as pg-boss keeps it: a thrown error's, or its own (`{ value: { message } }`). */
export function jobError(row: Pick<JobRow, 'state' | 'output'>): string | null {
  if (row.state !== 'failed' && row.state !== 'retry') return null;
  const out = row.output as { message?: unknown; value?: { message?: unknown } } | null;
  const message = out?.message ?? out?.value?.message;
  return typeof message === 'string' ? message.slice(0, 1000) : null;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function statusVO(row: JobRow): JobStatusVO {
  return {
    id: row.id,
    queue: row.queue,
    state: row.state,
    progress: row.state === 'completed' ? 100 : (row.progress ?? 0),
    progressMessage: row.progress_message,
    error: jobError(row),
    createdAt: iso(row.created_on)!,
    completedAt: iso(row.completed_on),
  };
}

function adminVO(row: JobRow): JobAdminVO {
  return {
    id: row.id,
    queue: row.queue,
    deadLetter: row.queue.endsWith(DEAD_SUFFIX),
    state: row.state,
    retryCount: row.retry_count,
    retryLimit: row.retry_limit,
    error: jobError(row),
    tenantId: row.tenant_id,
    userId: row.user_id,
    progress: row.progress,
    createdAt: iso(row.created_on)!,
    startAfter: iso(row.start_after)!,
    startedAt: iso(row.started_on),
    completedAt: iso(row.completed_on),
  };
}

export type JobsService = ReturnType<typeof createJobsService>;

/**
 * The calls on jobs: a user's own job (state and progress, cancel) — scoped to the session's tenant and the job's
 * owner, anything else is "not found" — and the administrator's list, retry and cancel. Every change is audited in
 * the transaction of pg-boss's own update.
 */
export function createJobsService(deps: { db: Db; clock: Clock; jobs: JobQueue }) {
  const { db, clock, jobs } = deps;

  async function own(auth: AuthContext, id: string): Promise<JobRow> {
    const row = await findJob(db, id);
    if (!row || row.tenant_id !== auth.tenantId || row.user_id !== auth.userId) throw new AppError(404, NOT_FOUND);
    return row;
  }

  async function cancel(row: JobRow, ctx: AuditContext): Promise<JobStatusVO> {
    if (row.state === 'completed' || row.state === 'cancelled' || row.state === 'failed')
      throw new AppError(409, '任务已结束，无法取消');
    await db.transaction(async (tx) => {
      if (!(await jobs.cancel(tx, row.queue, row.id))) throw new AppError(409, '任务已结束，无法取消');
      await audit(
        tx,
        ctx,
        {
          action: 'job.cancel',
          entityType: 'job',
          entityId: row.id,
          oldValue: { queue: row.queue, state: row.state },
          newValue: { state: 'cancelled' },
        },
        clock.now(),
      );
    });
    return statusVO((await findJob(db, row.id))!);
  }

  return {
    async status(auth: AuthContext, id: string): Promise<JobStatusVO> {
      return statusVO(await own(auth, id));
    },

    async cancelOwn(auth: AuthContext, id: string, ctx: AuditContext): Promise<JobStatusVO> {
      return cancel(await own(auth, id), ctx);
    },

    async list(query: JobListQuery): Promise<JobAdminVO[]> {
      const rows = await listJobs(db, { state: query.state, queue: query.queue, limit: query.limit ?? 100 });
      return rows.map(adminVO);
    },

    async cancel(id: string, ctx: AuditContext): Promise<JobAdminVO> {
      const row = await findJob(db, id);
      if (!row) throw new AppError(404, NOT_FOUND);
      await cancel(row, ctx);
      return adminVO((await findJob(db, id))!);
    },

    /** A dead job (failed after its last retry) gets one more attempt. */
    async retry(id: string, ctx: AuditContext): Promise<JobAdminVO> {
      const row = await findJob(db, id);
      if (!row) throw new AppError(404, NOT_FOUND);
      if (row.state !== 'failed') throw new AppError(409, '只有失败的任务可以重试');
      await db.transaction(async (tx) => {
        if (!(await jobs.retry(tx, row.queue, row.id))) throw new AppError(409, '只有失败的任务可以重试');
        await audit(
          tx,
          ctx,
          {
            action: 'job.retry',
            entityType: 'job',
            entityId: row.id,
            oldValue: { queue: row.queue, state: row.state, error: jobError(row) },
            newValue: { state: 'retry' },
          },
          clock.now(),
        );
      });
      return adminVO((await findJob(db, id))!);
    },
  };
}
