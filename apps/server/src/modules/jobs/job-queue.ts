import { createRequire } from 'node:module';
import PgBoss from 'pg-boss';
import type pg from 'pg';
import type { Db, Executor } from '../../db/client';
import { ensureQueue, JOB_QUEUE_SCHEMA } from '../../db/job-queue-schema';
import { deadLetterOf, HOUSEKEEPING, JOB_QUEUES, QUEUE_NAME, type JobQueuePolicy } from '../../domain/jobs/job-queues';
import type { IntervalJob } from '../../domain/jobs/interval-job';
import type { Clock } from '../../lib/clock';
import { bossDb, insertJobRun, jobState, updateJobProgress } from './jobs.repository';

/** What a worker's handler gets. */
export type JobContext<T = unknown> = {
  id: string;
  queue: string;
  /** The payload given to `enqueue` (or the schedule's data). */
  data: T;
  /** Who started it (enqueue); null for a scheduled job. */
  tenantId: string | null;
  userId: string | null;
  /** 0 on the first attempt. */
  retryCount: number;
  /**
   * Reports progress (0–100, an optional short message without PHI) for the page polling the job. Throws
   * JobCancelledError once the job was cancelled: a long job calls it between steps and stops there.
   */
  progress(percent: number, message?: string): Promise<void>;
};

export type JobHandler<T = unknown> = (job: JobContext<T>) => Promise<unknown>;

export class JobCancelledError extends Error {
  constructor(readonly jobId: string) {
    super(`job ${jobId} was cancelled`);
    this.name = 'JobCancelledError';
  }
}

export type JobQueueLogger = { error(obj: object, msg: string): void; warn?(obj: object, msg: string): void };

export type JobQueueSettings = {
  /** How often an idle worker looks for a job (JOBS_POLL_MS). */
  pollingIntervalSeconds: number;
  /** How often expired active jobs (a dead worker's) are failed, so they are retried (JOBS_MAINTENANCE_SECONDS). */
  maintenanceIntervalSeconds: number;
  /** How often due cron schedules are checked (JOBS_CRON_SECONDS); one instance at a time does it. */
  cronIntervalSeconds: number;
  /** Install or upgrade pg-boss's schema at start: false in the app (migrations do it as the owner). */
  migrate: boolean;
  /** Longest `stop()` waits for running jobs before failing them (they are retried). */
  stopTimeoutMs?: number;
};

/** pg-boss's SQL builders (not in its typings); only to recognise the statements below. */
const bossPlans = createRequire(import.meta.url)('pg-boss/src/plans.js') as {
  completeJobs(schema: string): string;
  failJobsById(schema: string): string;
};
/** The statements pg-boss's worker runs without awaiting them (manager.js, `watch`): complete and fail by id. */
const UNAWAITED = new Set([bossPlans.completeJobs(JOB_QUEUE_SCHEMA), bossPlans.failJobsById(JOB_QUEUE_SCHEMA)]);

/** The envelope an enqueued job's data is kept in: who started it, and the payload. */
type Envelope = { tenantId?: string; userId?: string; payload?: unknown };

const TIME_ZONE = 'Asia/Shanghai';
/** Finished jobs stay in the live table a day, failed ones a week (the administrator's list reads the live table). */
const ARCHIVE_COMPLETED_SECONDS = 24 * 3600;
const ARCHIVE_FAILED_SECONDS = 7 * 24 * 3600;

/**
 * A cron expression running about every `seconds` (cron's unit is the minute): 1–59 minutes → every n minutes (of the
 * hour), whole hours → every n hours on the hour, a day or more → daily at 03:00 (Shanghai).
 */
export function cronEvery(seconds: number): string {
  const minutes = Math.max(1, Math.round(seconds / 60));
  if (minutes === 1) return '* * * * *';
  if (minutes < 60) return `*/${minutes} * * * *`;
  const hours = Math.round(minutes / 60);
  if (hours === 1) return '0 * * * *';
  if (hours < 24) return `0 */${hours} * * *`;
  return '0 3 * * *';
}

export type { IntervalJob, Job } from '../../domain/jobs/interval-job';

export type JobQueue = ReturnType<typeof createJobQueue>;

/**
 * The job queue of one process, on pg-boss (ADR 0014) over the app's pool. Modules `define` queues with a handler,
 * `schedule` recurring runs or turn an interval job into one (`every`), and `enqueue` one-off jobs for a user;
 * `start()` starts the workers, the cron and the maintenance (expiry of a dead worker's jobs), `stop()` ends them.
 * Any number of processes may run it over one database: pg-boss claims each job with `FOR UPDATE SKIP LOCKED` (one
 * worker gets it) and lets one instance at a time turn a schedule into a job (one job per minute slot). A job is run
 * at least once: its handler must be idempotent (a worker killed after the effect but before completing means a
 * retry). Enqueue, cancel and retry work without `start()` (no workers in this process).
 */
export function createJobQueue(deps: {
  pool: pg.Pool;
  db: Db;
  clock: Clock;
  settings: JobQueueSettings;
  logger?: JobQueueLogger;
}) {
  const { db, clock, settings } = deps;
  const poolDb: PgBoss.Db = {
    async executeSql(text: string, values?: unknown[]) {
      try {
        return await deps.pool.query(text, values as unknown[]);
      } catch (err) {
        // pg-boss's worker completes or fails a job without awaiting it: a lost connection there would be an
        // unhandled rejection (the process dies). The job stays active instead, expires and is retried.
        if (!UNAWAITED.has(text)) throw err;
        deps.logger?.error({ err }, '任务状态未能保存，任务到期后将重试');
        return { rows: [{ count: '0' }] };
      }
    },
  };
  const boss = new PgBoss({
    db: poolDb,
    schema: JOB_QUEUE_SCHEMA,
    migrate: settings.migrate,
    supervise: true,
    schedule: true,
    maintenanceIntervalSeconds: settings.maintenanceIntervalSeconds,
    cronMonitorIntervalSeconds: settings.cronIntervalSeconds,
    cronWorkerIntervalSeconds: Math.min(settings.cronIntervalSeconds, 5),
    pollingIntervalSeconds: settings.pollingIntervalSeconds,
    archiveCompletedAfterSeconds: ARCHIVE_COMPLETED_SECONDS,
    archiveFailedAfterSeconds: ARCHIVE_FAILED_SECONDS,
  });
  boss.on('error', (err: unknown) => deps.logger?.error({ err }, '任务队列出错'));

  const queues = new Map<string, { policy: JobQueuePolicy; handler: JobHandler<never> }>();
  const schedules = new Map<string, { cron: string; data: object }>();
  /** start() was called (define is closed); `working`: the queues whose worker runs; stop() was called. */
  let started = false;
  const working = new Set<string>();
  let stopping = false;

  function policyOf(name: string): JobQueuePolicy {
    const defined = queues.get(name)?.policy ?? JOB_QUEUES.find((q) => q.name === name);
    if (!defined) throw new Error(`job queue ${name} is not defined`);
    return defined;
  }

  function context<T>(job: PgBoss.JobWithMetadata<Envelope>, scheduled: boolean): JobContext<T> {
    const env = job.data ?? {};
    return {
      id: job.id,
      queue: job.name,
      data: (scheduled ? env : env.payload) as T,
      tenantId: scheduled ? null : (env.tenantId ?? null),
      userId: scheduled ? null : (env.userId ?? null),
      retryCount: job.retryCount,
      async progress(percent, message) {
        if (!(percent >= 0 && percent <= 100)) throw new Error(`progress ${percent} is not within 0–100`);
        await updateJobProgress(db, job.id, Math.round(percent), message?.slice(0, 200) ?? null, clock.now());
        if ((await jobState(db, job.name, job.id)) === 'cancelled') throw new JobCancelledError(job.id);
      },
    };
  }

  /** Registers a queue (its policy; in JOB_QUEUES unless only tests use it) and the handler of its jobs. */
  function define<T>(policy: JobQueuePolicy, handler: JobHandler<T>): void {
    if (!QUEUE_NAME.test(policy.name)) throw new Error(`invalid job queue name: ${policy.name}`);
    if (queues.has(policy.name)) throw new Error(`job queue ${policy.name} defined twice`);
    if (started) throw new Error(`job queue ${policy.name} defined after start`);
    queues.set(policy.name, { policy, handler: handler as JobHandler<never> });
  }

  /** Runs the queue's job on a cron schedule (Asia/Shanghai): one job per due time whatever the instances. */
  function schedule(name: string, cron: string, data: object = {}): void {
    policyOf(name);
    schedules.set(name, { cron, data });
  }

  return {
    define,
    schedule,

    /**
     * An interval job as a queue and schedule: the adapter of the `{ name, intervalSeconds, run }` shape. Its queue
     * takes the catalogue's policy when listed in JOB_QUEUES (it must be, for a deployment whose app role may not
     * create tables), else the housekeeping policy; `leaseSeconds` overrides the expiry.
     */
    every(job: IntervalJob): void {
      const listed = JOB_QUEUES.find((q) => q.name === job.name) ?? { name: job.name, ...HOUSEKEEPING };
      const policy: JobQueuePolicy = { ...listed, expireInSeconds: job.leaseSeconds ?? listed.expireInSeconds };
      define(policy, () => job.run());
      schedule(job.name, cronEvery(job.intervalSeconds));
    },

    /**
     * Starts this process's part: checks the schema (or installs it when `migrate`), creates any defined queue still
     * missing (tests' queues; needs the owner) and updates the policies, saves the schedules, starts one worker per
     * queue, the cron and the maintenance. May be called again after it failed (the database was briefly gone).
     */
    async start(): Promise<void> {
      if (stopping) throw new Error('the job queue is stopping');
      started = true;
      await boss.start();
      for (const { policy } of queues.values()) await ensureQueue(boss, policy);
      for (const [name, s] of schedules) await boss.schedule(name, s.cron, s.data, { tz: TIME_ZONE });
      for (const [name, { handler }] of queues) {
        if (working.has(name)) continue; // a start retried after a failure: this worker runs already
        const scheduled = schedules.has(name);
        await boss.work<Envelope>(
          name,
          { pollingIntervalSeconds: settings.pollingIntervalSeconds, batchSize: 1, includeMetadata: true },
          async ([job]) => {
            if (!job) return undefined;
            try {
              return await handler(context(job, scheduled) as never);
            } catch (err) {
              if (!(err instanceof JobCancelledError))
                deps.logger?.error({ err, job: name, jobId: job.id }, `任务 ${name} 失败`);
              throw err;
            }
          },
        );
        working.add(name);
      }
    },

    /** Stops the workers (waiting for running jobs up to the timeout; those still running are failed and retried). */
    async stop(): Promise<void> {
      if (!started || stopping) return;
      stopping = true;
      await boss.stop({ graceful: true, close: false, wait: true, timeout: settings.stopTimeoutMs ?? 8000 });
    },

    /**
     * Enqueues a one-off job started by a user, in the caller's transaction: pg-boss's row and our `job_runs` row
     * (owner, progress) commit together with whatever else the caller writes (its audit event). Answers the job id.
     */
    async enqueue(
      tx: Executor,
      name: string,
      owner: { tenantId: string; userId: string },
      payload: unknown,
      options: { startAfterSeconds?: number; singletonKey?: string } = {},
    ): Promise<string> {
      policyOf(name);
      const data: Envelope = { tenantId: owner.tenantId, userId: owner.userId, payload };
      const id = await boss.send(name, data, {
        db: bossDb(tx),
        ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
        ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
      });
      if (!id) throw new Error(`job not enqueued on ${name} (a singleton already queued)`);
      await insertJobRun(tx, { jobId: id, queue: name, tenantId: owner.tenantId, userId: owner.userId });
      return id;
    },

    /** Cancels a job not yet finished (in the caller's transaction); a running one stops at its next progress report. */
    async cancel(tx: Executor, queue: string, id: string): Promise<boolean> {
      const result = (await boss.cancel(queue, id, { db: bossDb(tx) })) as unknown as { affected: number };
      return result.affected === 1;
    },

    /** Puts a failed (dead) job back to be retried once more (in the caller's transaction). */
    async retry(tx: Executor, queue: string, id: string): Promise<boolean> {
      const result = (await boss.retry(queue, id, { db: bossDb(tx) })) as unknown as { affected: number };
      return result.affected === 1;
    },

    /** Runs pg-boss's maintenance now (expire, archive); the timer does this every `maintenanceIntervalSeconds`. */
    maintain: () => boss.maintain(),

    deadLetterOf,
    /** The queues this process defined. */
    names: () => [...queues.keys()],
  };
}
