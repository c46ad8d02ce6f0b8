import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { claimJob, ensureJobRow, finishJob } from './scheduler.repository';

/** A durable job: runs every `intervalSeconds`, in one process at a time, its schedule kept in `scheduled_jobs`. */
export type Job = {
  name: string;
  intervalSeconds: number;
  /** How long a run may hold the job before another process may take it over (a crashed run's lease expires). */
  leaseSeconds?: number;
  run(): Promise<void>;
};

export type JobRunLogger = {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
};

export type JobRunner = ReturnType<typeof createJobRunner>;

const DEFAULT_LEASE_SECONDS = 10 * 60;

/**
 * The job runner of one process. Every tick it tries each registered job: a due job whose lease is free is claimed
 * with one conditional UPDATE (`claimJob`), run, and released with its result and next run time. Any number of
 * processes may run a runner over the same database; each job runs in one of them at a time. Time comes from the
 * clock, so tests drive it with a fake one and `tick()`; `start()` ticks on a timer until `stop()`.
 */
export function createJobRunner(deps: {
  db: Db;
  clock: Clock;
  jobs: readonly Job[];
  /** Seconds between ticks of `start()`. */
  tickSeconds: number;
  logger?: JobRunLogger;
  /** Names this process in `locked_by` (default host:pid). */
  instanceId?: string;
}) {
  const { db, clock, jobs } = deps;
  const instanceId = deps.instanceId ?? `${hostname()}:${process.pid}`;
  const names = new Set<string>();
  for (const job of jobs) {
    if (names.has(job.name)) throw new Error(`job ${job.name} registered twice`);
    if (!(job.intervalSeconds > 0)) throw new Error(`job ${job.name}: intervalSeconds must be positive`);
    names.add(job.name);
  }
  let ensured = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<string[]> | undefined;
  let stopped = false;

  async function ensureRows(): Promise<void> {
    if (ensured) return;
    const now = clock.now();
    for (const job of jobs) await ensureJobRow(db, job.name, now);
    ensured = true;
  }

  /** Claims and runs one job when it is due; true when this process ran it. */
  async function runJob(job: Job): Promise<boolean> {
    const startedAt = clock.now();
    const lease = new Date(startedAt.getTime() + (job.leaseSeconds ?? DEFAULT_LEASE_SECONDS) * 1000);
    const owner = `${instanceId}:${randomUUID()}`;
    if (!(await claimJob(db, job.name, owner, startedAt, lease))) return false;
    let error: string | null = null;
    try {
      await job.run();
    } catch (err) {
      error = err instanceof Error ? `${err.name}: ${err.message}`.slice(0, 2000) : String(err).slice(0, 2000);
      deps.logger?.error({ err, job: job.name }, `定时任务 ${job.name} 失败`);
    }
    const finishedAt = clock.now();
    await finishJob(db, job.name, owner, {
      finishedAt,
      nextRunAt: new Date(finishedAt.getTime() + job.intervalSeconds * 1000),
      error,
    });
    return true;
  }

  async function tickOnce(): Promise<string[]> {
    await ensureRows();
    const ran: string[] = [];
    for (const job of jobs) {
      if (stopped) break;
      if (await runJob(job)) ran.push(job.name);
    }
    return ran;
  }

  /** One pass over the jobs (not overlapping a pass under way); answers the names of the jobs this process ran. */
  function tick(): Promise<string[]> {
    if (running) return running.then(() => []);
    running = tickOnce().finally(() => {
      running = undefined;
    });
    return running;
  }

  return {
    instanceId,
    tick,

    /** Ticks now and then every `tickSeconds` until `stop()`. */
    start(): void {
      if (timer) return;
      stopped = false;
      const loop = () => {
        tick().catch((err: unknown) => deps.logger?.error({ err }, '定时任务调度失败'));
      };
      timer = setInterval(loop, deps.tickSeconds * 1000);
      timer.unref();
      loop();
    },

    /** Stops the timer and waits for a pass under way (its job finishes and releases its lease). */
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined);
    },
  };
}
