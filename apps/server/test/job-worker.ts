/**
 * A worker process of the job-queue kill test: a job queue on its own pool with one queue (QUEUE, expiring after
 * EXPIRE seconds), whose handler writes one row to `job_effects` per run. With BLOCK=1 it prints `claimed <id>` when
 * it takes a job and then never finishes it (the test kills the process there). Run with `node --import tsx`.
 */
import { createDb } from '../src/db/client';
import { createPool } from '../src/db/pool';
import { systemClock } from '../src/lib/clock';
import { createJobQueue } from '../src/modules/jobs/job-queue';

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  const queue = process.env.QUEUE;
  if (!url || !queue) throw new Error('DATABASE_URL and QUEUE are required');
  const pool = createPool(url, { max: 3 });
  const jobs = createJobQueue({
    pool,
    db: createDb(pool),
    clock: systemClock,
    settings: { pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1, cronIntervalSeconds: 1, migrate: false },
    logger: { error: (obj, msg) => process.stderr.write(`${msg} ${JSON.stringify(obj)}\n`) },
  });
  jobs.define(
    {
      name: queue,
      retryLimit: 3,
      retryDelaySeconds: 0,
      retryBackoff: false,
      expireInSeconds: Number(process.env.EXPIRE ?? 4),
    },
    async (job) => {
      if (process.env.BLOCK === '1') {
        process.stdout.write(`claimed ${job.id}\n`);
        await new Promise(() => undefined); // a job that never ends: the test kills this process mid-job
      }
      await pool.query('insert into job_effects (job_id, pid) values ($1, $2)', [job.id, process.pid]);
    },
  );
  await jobs.start();
  process.stdout.write('started\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
