import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobQueueLabel } from '@registry/shared/contracts/job';
import { createDb, type Db } from '../../db/client';
import { installJobQueueSchema } from '../../db/job-queue-schema';
import { closePool, createPool } from '../../db/pool';
import { seedReferenceData } from '../../db/seed';
import { FOLLOWUP_REMINDER_QUEUE, JOB_QUEUES } from '../../domain/jobs/job-queues';
import { createFakeClock } from '../../lib/clock';
import { createTestDatabase, type TestDatabase } from '../../../test/db';
import { TEST_APP_ROLE } from '../../../test/pg-admin';
import { buildTenant, buildUser } from '../../../test/factories';
import { buildReminderWorld } from '../../../test/reminder-factory';
import { createInAppNotifier } from '../notification/notifier';
import { createFollowupReminderJob } from '../followup/followup-reminder.job';
import { cronEvery, createJobQueue, type JobQueue } from './job-queue';

let database: TestDatabase;
let db: Db;
beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb(database.pool);
  await seedReferenceData(db);
});
afterAll(async () => {
  await database?.close();
});

/** Short intervals: a worker polls every 0.5 s, maintenance and cron run every second. */
const FAST = { pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1, cronIntervalSeconds: 1, migrate: false };

/** The first column of the first row as a number (a `count(*)`). */
const count = async (query: string, values: unknown[] = []) =>
  Number(Object.values((await database.pool.query<Record<string, unknown>>(query, values)).rows[0] ?? {})[0]);

describe('cronEvery', () => {
  it('should turn the former intervals into cron expressions', () => {
    expect(cronEvery(60)).toBe('* * * * *');
    expect(cronEvery(10)).toBe('* * * * *');
    expect(cronEvery(300)).toBe('*/5 * * * *');
    expect(cronEvery(3600)).toBe('0 * * * *');
    expect(cronEvery(6 * 3600)).toBe('0 */6 * * *');
    expect(cronEvery(86_400)).toBe('0 3 * * *');
  });
});

describe('the queues the administrator reads', () => {
  it('should have a Chinese label for every queue of the app, its dead-letter queue labelled as it', () => {
    for (const q of JOB_QUEUES) {
      expect(jobQueueLabel(q.name), q.name).toMatch(/\p{Script=Han}/u);
      expect(jobQueueLabel(`${q.name}__dead`)).toBe(jobQueueLabel(q.name));
    }
    expect(jobQueueLabel('test.unlisted')).toBeUndefined();
  });
});

describe('the job queue schema', () => {
  it('should be installed by the migrations with every listed queue and its dead-letter queue', async () => {
    const { rows } = await database.pool.query<{ name: string; dead_letter: string | null }>(
      'select name, dead_letter from pgboss.queue order by name',
    );
    for (const q of JOB_QUEUES) {
      expect(rows).toContainEqual({ name: q.name, dead_letter: `${q.name}__dead` });
      expect(rows).toContainEqual({ name: `${q.name}__dead`, dead_letter: null });
    }
  });

  it('should refuse to start an app queue on a database without the schema (migrate: false)', async () => {
    await database.ownerPool().query('alter schema pgboss rename to pgboss_away');
    const jobs = createJobQueue({ pool: database.pool, db, clock: createFakeClock(), settings: FAST });
    try {
      await expect(jobs.start()).rejects.toThrow(/pg-boss is not installed/);
    } finally {
      await database.ownerPool().query('alter schema pgboss_away rename to pgboss');
    }
  });
});

describe('an app role that does not own the schema', () => {
  it('should run the listed queues with the rights the install step granted, and not create a queue of its own', async () => {
    const role = `jobs_app_${Math.random().toString(36).slice(2, 8)}`;
    await database.ownerPool().query(`create role ${role} login password 'app-pw'`);
    await installJobQueueSchema(database.ownerConnectionString, { grantTo: role });
    // what the app's own tables would get from the migrations that grant them (another change's work)
    await database.ownerPool().query(`grant select, insert, update on job_runs to ${role}`);
    const url = new URL(database.ownerConnectionString);
    url.username = role;
    url.password = 'app-pw';
    const pool = createPool(url.toString(), { max: 3 });
    const appDb = createDb(pool);
    const { tenant } = await buildTenant(db);
    const user = await buildUser(db, tenant.id);
    const listed = JOB_QUEUES.find((q) => q.name === 'idempotency-cleanup')!;
    const ran: string[] = [];
    const app = createJobQueue({ pool, db: appDb, clock: createFakeClock(), settings: FAST });
    app.define(listed, async (job) => {
      ran.push(job.id);
    });
    const stray = createJobQueue({ pool, db: appDb, clock: createFakeClock(), settings: FAST });
    stray.define({ ...listed, name: 'test.unlisted' }, async () => undefined);
    try {
      await app.start();
      const id = await appDb.transaction((tx) =>
        app.enqueue(tx, listed.name, { tenantId: tenant.id, userId: user.id }, {}),
      );
      await expect.poll(() => ran, { timeout: 15_000, interval: 200 }).toEqual([id]);
      await expect(stray.start()).rejects.toThrow(/permission denied/);
    } finally {
      await app.stop();
      await stray.stop();
      await closePool(pool);
      await database.ownerPool().query(`drop owned by ${role}`);
      await database.ownerPool().query(`drop role ${role}`);
    }
  }, 40_000);
});

describe('a scheduled job with two app instances', () => {
  it('should run the follow-up reminders once per due time whatever the instances, each task notified once', async () => {
    const world = await buildReminderWorld(db, { remindDaysBefore: 0 });
    const dates = { windowStart: '2026-03-07', dueDate: '2026-03-08', windowEnd: '2026-03-09' };
    await world.addTasks({ ...dates, count: 30, ownerId: world.users.nurseC1 });
    const clock = createFakeClock(new Date('2026-03-07T01:00:00Z'));
    const pools = [
      createPool(database.connectionString, { max: 4 }),
      createPool(database.connectionString, { max: 4 }),
    ];
    const instances: JobQueue[] = pools.map((pool) => {
      const d = createDb(pool);
      const jobs = createJobQueue({ pool, db: d, clock, settings: FAST });
      jobs.every(createFollowupReminderJob({ db: d, clock, notifier: createInAppNotifier(), intervalSeconds: 60 }));
      return jobs;
    });
    try {
      await Promise.all(instances.map((j) => j.start()));
      const completed = () =>
        count(`select count(*) from pgboss.job where name = $1 and state = 'completed'`, [FOLLOWUP_REMINDER_QUEUE]);
      await expect.poll(completed, { timeout: 20_000, interval: 200 }).toBeGreaterThanOrEqual(1);
      // let both instances' cron look at the schedule a few more times
      const cronAt = async () =>
        (await database.pool.query<{ t: Date }>('select cron_on as t from pgboss.version')).rows[0]!.t.getTime();
      const seen = await cronAt();
      await expect.poll(cronAt, { timeout: 10_000, interval: 200 }).toBeGreaterThan(seen);
      const later = await cronAt();
      await expect.poll(cronAt, { timeout: 10_000, interval: 200 }).toBeGreaterThan(later);
      // one job per minute of the schedule, never two for the same minute
      const { rows } = await database.pool.query<{ minute: string; n: number }>(
        `select date_trunc('minute', created_on)::text as minute, count(*)::int as n from pgboss.job
          where name = $1 group by 1`,
        [FOLLOWUP_REMINDER_QUEUE],
      );
      expect(rows.length).toBeGreaterThanOrEqual(1);
      expect(rows.every((r) => r.n === 1)).toBe(true);
      expect(
        await count(`select count(*) from notifications where tenant_id = $1 and kind = 'followup_due'`, [
          world.tenantId,
        ]),
      ).toBe(30);
      expect(
        await count(`select count(distinct entity_id) from notifications where tenant_id = $1`, [world.tenantId]),
      ).toBe(30);
    } finally {
      await Promise.all(instances.map((j) => j.stop()));
      await Promise.all(pools.map((p) => closePool(p)));
    }
  }, 60_000);
});

describe('a job whose completion cannot be saved', () => {
  it('should leave the process running and the job active, then run it again once it expired', async () => {
    const policy = { name: 'test.lost', retryLimit: 2, retryDelaySeconds: 0, retryBackoff: false, expireInSeconds: 2 };
    await installJobQueueSchema(database.ownerConnectionString, { queues: [policy], grantTo: TEST_APP_ROLE });
    const { tenant } = await buildTenant(db);
    const user = await buildUser(db, tenant.id);
    // the pool loses its connection exactly when pg-boss saves this job's first completion (a statement it does not
    // await); only the statement that names the job, not another one of pg-boss's that sets the same state
    let lose = true;
    let jobId = '';
    const pool = {
      query(text: string, values?: unknown[]) {
        if (lose && jobId && text.includes("state = 'completed',") && JSON.stringify(values ?? []).includes(jobId)) {
          lose = false;
          return Promise.reject(new Error('Connection terminated unexpectedly'));
        }
        return database.pool.query(text, values);
      },
    } as unknown as typeof database.pool;
    const errors: string[] = [];
    const jobs = createJobQueue({
      pool,
      db,
      clock: createFakeClock(),
      settings: FAST,
      logger: { error: (_obj, msg) => errors.push(msg) },
    });
    const runs: number[] = [];
    jobs.define(policy, async (job) => {
      runs.push(job.retryCount);
    });
    const id = await db.transaction((tx) =>
      jobs.enqueue(tx, policy.name, { tenantId: tenant.id, userId: user.id }, {}),
    );
    jobId = String(id);
    await jobs.start();
    try {
      await expect
        .poll(() => count(`select count(*) from pgboss.job where id = $1 and state = 'completed'`, [id]), {
          timeout: 30_000,
          interval: 200,
        })
        .toBe(1);
      expect(lose).toBe(false);
      expect(runs).toEqual([0, 1]);
      expect(errors).toContain('任务状态未能保存，任务到期后将重试');
    } finally {
      await jobs.stop();
    }
  }, 60_000);
});

describe('a job whose worker process dies', () => {
  const WORKER = path.resolve(__dirname, '../../../test/job-worker.ts');
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  });

  function startWorker(env: Record<string, string>) {
    const child = spawn(process.execPath, ['--import', 'tsx', WORKER], {
      env: { ...process.env, DATABASE_URL: database.connectionString, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    return { child, output: () => out, exited };
  }

  it('should be taken up again by another process after it expired and finished exactly once', async () => {
    const queue = 'test.kill';
    const policy = { name: queue, retryLimit: 3, retryDelaySeconds: 0, retryBackoff: false, expireInSeconds: 4 };
    await installJobQueueSchema(database.ownerConnectionString, { queues: [policy], grantTo: TEST_APP_ROLE });
    await database.ownerPool().query('create table job_effects (job_id uuid not null, pid int not null)');
    await database.ownerPool().query(`grant select, insert on job_effects to ${TEST_APP_ROLE}`);
    const { tenant } = await buildTenant(db);
    const user = await buildUser(db, tenant.id);
    const enqueuer = createJobQueue({ pool: database.pool, db, clock: createFakeClock(), settings: FAST });
    enqueuer.define(policy, async () => undefined); // never started: only enqueues
    const id = await db.transaction((tx) =>
      enqueuer.enqueue(tx, queue, { tenantId: tenant.id, userId: user.id }, { rows: 1 }),
    );

    const first = startWorker({ QUEUE: queue, BLOCK: '1', EXPIRE: '4' });
    await expect.poll(() => first.output(), { timeout: 30_000, interval: 100 }).toContain(`claimed ${id}`);
    first.child.kill('SIGKILL');
    await first.exited;
    expect(await count(`select count(*) from pgboss.job where id = $1 and state = 'active'`, [id])).toBe(1);

    const second = startWorker({ QUEUE: queue, EXPIRE: '4' });
    try {
      await expect
        .poll(() => count(`select count(*) from pgboss.job where id = $1 and state = 'completed'`, [id]), {
          timeout: 30_000,
          interval: 200,
        })
        .toBe(1);
      const { rows } = await database.pool.query<{ pid: number }>('select pid from job_effects where job_id = $1', [
        id,
      ]);
      expect(rows).toEqual([{ pid: second.child.pid }]);
      const { rows: job } = await database.pool.query<{ retry_count: number }>(
        'select retry_count from pgboss.job where id = $1',
        [id],
      );
      expect(job[0]?.retry_count).toBe(1);
    } finally {
      second.child.kill('SIGKILL');
      await second.exited;
    }
  }, 90_000);
});
