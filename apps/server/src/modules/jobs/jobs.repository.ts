import { and, eq, sql, type SQL } from 'drizzle-orm';
import type pg from 'pg';
import type PgBoss from 'pg-boss';
import type { Executor } from '../../db/client';
import { JOB_QUEUE_SCHEMA } from '../../db/job-queue-schema';
import { jobRuns } from '../../db/schema';

/**
 * pg-boss's `db` option over a Drizzle executor: pg-boss's own statement (send, cancel, retry) then runs on the
 * executor's connection — in a transaction, beside the audit row and our `job_runs` row, committing or rolling back
 * with them. pg-boss's SQL uses a placeholder in several places with types inferred from each (`$5` as text and as a
 * timestamp), so it must reach the driver as written: on the pg client (or pool) Drizzle runs the executor on — not
 * part of Drizzle's typed API, hence checked here before use.
 */
export function bossDb(tx: Executor): PgBoss.Db {
  const client = (tx as unknown as { session?: { client?: Partial<Pick<pg.Pool, 'query'>> } }).session?.client;
  if (typeof client?.query !== 'function') throw new Error('the Drizzle executor has no pg client to run pg-boss on');
  const query = client.query.bind(client) as (text: string, values?: unknown[]) => Promise<pg.QueryResult>;
  return { executeSql: (text: string, values?: unknown[]) => query(text, values) };
}

const S = sql.raw(JOB_QUEUE_SCHEMA);

export type JobRow = {
  id: string;
  queue: string;
  state: 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';
  data: unknown;
  output: unknown;
  retry_count: number;
  retry_limit: number;
  retry_backoff: boolean;
  dead_letter: string | null;
  created_on: Date;
  start_after: Date;
  started_on: Date | null;
  completed_on: Date | null;
  tenant_id: string | null;
  user_id: string | null;
  progress: number | null;
  progress_message: string | null;
};

const COLUMNS = sql`j.id, j.name as queue, j.state::text as state, j.data, j.output, j.retry_count, j.retry_limit,
  j.retry_backoff, j.dead_letter, j.created_on, j.start_after, j.started_on, j.completed_on,
  r.tenant_id, r.user_id, r.progress, r.progress_message`;

/**
 * One job by id, live or archived (pg-boss moves finished jobs to its archive after a while), with its owner and
 * progress when a user started it. pg-boss keys jobs by (queue, id): an id alone looks in every queue's table.
 */
export async function findJob(db: Executor, id: string): Promise<JobRow | undefined> {
  const { rows } = await db.execute<JobRow>(sql`
    select ${COLUMNS} from (
      select id, name, state, data, output, retry_count, retry_limit, retry_backoff, dead_letter, created_on,
             start_after, started_on, completed_on, 0 as src
        from ${S}.job where id = ${id}
      union all
      select id, name, state, data, output, retry_count, retry_limit, retry_backoff, dead_letter, created_on,
             start_after, started_on, completed_on, 1 as src
        from ${S}.archive where id = ${id}
    ) j left join job_runs r on r.job_id = j.id
    order by j.src limit 1`);
  return rows[0];
}

/**
 * Jobs for the administrator, newest first: of one state and/or queue (a dead-letter queue too), never pg-boss's
 * internal cron queue. Live jobs only (the archive keeps finished ones for days, failed ones as long: see JobQueue).
 */
export async function listJobs(
  db: Executor,
  filter: { state?: JobRow['state']; queue?: string; limit: number },
): Promise<JobRow[]> {
  const where: SQL[] = [sql`j.name not like '\\_\\_pgboss\\_\\_%'`];
  if (filter.state) where.push(sql`j.state = ${filter.state}::${S}.job_state`);
  if (filter.queue) where.push(sql`j.name = ${filter.queue}`);
  const { rows } = await db.execute<JobRow>(sql`
    select ${COLUMNS} from ${S}.job j left join job_runs r on r.job_id = j.id
    where ${sql.join(where, sql` and `)}
    order by j.created_on desc, j.id limit ${filter.limit}`);
  return rows;
}

/** The job's current state, or undefined when it is gone (read by a worker's progress report). */
export async function jobState(db: Executor, queue: string, id: string): Promise<JobRow['state'] | undefined> {
  const { rows } = await db.execute<{ state: JobRow['state'] }>(
    sql`select state::text as state from ${S}.job where name = ${queue} and id = ${id}`,
  );
  return rows[0]?.state;
}

export async function insertJobRun(
  tx: Executor,
  row: { jobId: string; queue: string; tenantId: string; userId: string },
): Promise<void> {
  await tx.insert(jobRuns).values(row);
}

/** The worker's progress report; false when the job has no row (a scheduled job: nobody polls it). */
export async function updateJobProgress(
  db: Executor,
  jobId: string,
  progress: number,
  message: string | null,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(jobRuns)
    .set({ progress, progressMessage: message, updatedAt: now })
    .where(and(eq(jobRuns.jobId, jobId)))
    .returning({ jobId: jobRuns.jobId });
  return rows.length === 1;
}
