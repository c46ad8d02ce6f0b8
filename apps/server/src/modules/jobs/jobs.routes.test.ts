import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobAdminVO, JobStatusVO } from '@registry/shared/contracts/job';
import { FOLLOWUP_REMINDER_QUEUE } from '../../domain/jobs/job-queues';
import { hospital, signedInUser, systemAdmin, type Account, type Hospital } from '../../../test/factories';
import { TEST_APP_ROLE } from '../../../test/pg-admin';
import { createBareTestApp, type TestApp } from '../../../test/test-app';
import { installJobQueueSchema } from '../../db/job-queue-schema';
import type { JobContext } from './job-queue';

/** Workers poll every 0.5 s; maintenance and cron every second. */
const FAST_JOBS = { JOBS_POLL_MS: '500', JOBS_MAINTENANCE_SECONDS: '1', JOBS_CRON_SECONDS: '1' };

let t: TestApp;
let h: Hospital;
let colleague: Account;
let other: Hospital;
let admin: Account;

/** The flaky queue's handler fails until `healthy`; every attempt's retry count is kept. */
const flaky = { healthy: false, attempts: [] as number[] };
/** The progress queue's handler reports 40 % and waits for `release`. */
let release: () => void = () => undefined;
/** The cancel queue's handler reports progress until cancelled, then notes it. */
const cancelled = new Set<string>();

beforeAll(async () => {
  t = await createBareTestApp(FAST_JOBS);
  h = await hospital(t);
  colleague = await signedInUser(t, h.tenantId);
  other = await hospital(t);
  admin = await systemAdmin(t);
  const quick = { retryLimit: 0, retryDelaySeconds: 0, retryBackoff: false, expireInSeconds: 60 };
  const flakyPolicy = {
    name: 'test.flaky',
    retryLimit: 2,
    retryDelaySeconds: 1,
    retryBackoff: true,
    expireInSeconds: 30,
  };
  // the tests' queues are installed as the owner, as the migrations install the app's (the app's role may not)
  await installJobQueueSchema(t.database.ownerConnectionString, {
    queues: [flakyPolicy, { name: 'test.progress', ...quick }, { name: 'test.cancel', ...quick }],
    grantTo: TEST_APP_ROLE,
  });
  t.app.jobs.define(flakyPolicy, async (job: JobContext) => {
    flaky.attempts.push(job.retryCount);
    if (!flaky.healthy) throw new Error('网关不可用');
    return { sent: true };
  });
  t.app.jobs.define({ name: 'test.progress', ...quick }, async (job: JobContext<{ rows: number }>) => {
    await job.progress(40, `第 2/${job.data.rows} 批`);
    await new Promise<void>((resolve) => (release = resolve));
    return { rows: job.data.rows };
  });
  t.app.jobs.define({ name: 'test.cancel', ...quick }, async (job: JobContext) => {
    try {
      for (;;) {
        await job.progress(10);
        await new Promise((r) => setTimeout(r, 100));
      }
    } catch (err) {
      cancelled.add(job.id);
      throw err;
    }
  });
  await t.app.jobs.start();
});
afterAll(async () => {
  release();
  await t?.close();
});

const enqueue = (queue: string, owner: Account, payload: unknown = {}, startAfterSeconds?: number) =>
  t.db.transaction((tx) =>
    t.app.jobs.enqueue(tx, queue, { tenantId: owner.tenantId, userId: owner.id }, payload, { startAfterSeconds }),
  );

async function detail(token: string, id: string) {
  const res = await t.api({ method: 'GET', url: '/job/detail', query: { id }, token });
  return { status: res.statusCode, data: (res.json() as { data: JobStatusVO | null }).data };
}

async function adminList(query: Record<string, string> = {}) {
  const res = await t.api({ method: 'GET', url: '/sys-job/list', query, token: admin.token });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: { items: JobAdminVO[] } }).data.items;
}

async function auditOf(action: string, id: string) {
  const { rows } = await t.database.pool.query<{ actor_id: string; old_value: unknown; new_value: unknown }>(
    'select actor_id, old_value, new_value from audit_events where action = $1 and entity_id = $2',
    [action, id],
  );
  return rows;
}

describe('a failing job', () => {
  it('should be retried with backoff, then fail into its dead-letter queue, listed with its error; a retry runs it again', async () => {
    const id = await enqueue('test.flaky', h.admin, { to: 'x' });
    await expect
      .poll(async () => (await adminList({ state: 'failed' })).find((j) => j.id === id), {
        timeout: 30_000,
        interval: 250,
      })
      .toMatchObject({ queue: 'test.flaky', retryCount: 2, retryLimit: 2, error: '网关不可用', deadLetter: false });
    expect(flaky.attempts).toEqual([0, 1, 2]);
    const { rows } = await t.database.pool.query<{ retry_backoff: boolean; retry_delay: number }>(
      'select retry_backoff, retry_delay from pgboss.job where id = $1',
      [id],
    );
    expect(rows).toEqual([{ retry_backoff: true, retry_delay: 1 }]);
    const dead = await adminList({ queue: 'test.flaky__dead' });
    expect(dead).toHaveLength(1);
    expect(dead[0]).toMatchObject({ deadLetter: true, state: 'created' });
    // the owner sees it failed, with the error
    expect(await detail(h.admin.token, id)).toMatchObject({
      status: 200,
      data: { state: 'failed', error: '网关不可用' },
    });

    // a tenant's administrator is not the platform's
    const refused = await t.api({ method: 'GET', url: '/sys-job/list', token: h.admin.token });
    expect(refused.statusCode).toBe(403);
    const refusedRetry = await t.api({ method: 'POST', url: '/sys-job/retry', payload: { id }, token: h.admin.token });
    expect(refusedRetry.statusCode).toBe(403);

    flaky.healthy = true;
    const retried = await t.api({ method: 'POST', url: '/sys-job/retry', payload: { id }, token: admin.token });
    expect(retried.statusCode, retried.body).toBe(200);
    expect((retried.json() as { data: JobAdminVO }).data.state).toBe('retry');
    expect(await auditOf('job.retry', id)).toEqual([
      {
        actor_id: admin.id,
        old_value: { queue: 'test.flaky', state: 'failed', error: '网关不可用' },
        new_value: { state: 'retry' },
      },
    ]);
    await expect
      .poll(async () => (await detail(h.admin.token, id)).data?.state, { timeout: 15_000, interval: 250 })
      .toBe('completed');
    expect(flaky.attempts).toHaveLength(4);
    // a finished job cannot be retried
    const again = await t.api({ method: 'POST', url: '/sys-job/retry', payload: { id }, token: admin.token });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: '只有失败的任务可以重试' });
  }, 60_000);
});

describe("a user's job", () => {
  it('should show its progress to its owner only, then 100 % when done', async () => {
    const id = await enqueue('test.progress', h.admin, { rows: 5 });
    await expect
      .poll(async () => (await detail(h.admin.token, id)).data, { timeout: 15_000, interval: 200 })
      .toMatchObject({ queue: 'test.progress', state: 'active', progress: 40, progressMessage: '第 2/5 批' });
    // a colleague of the same tenant, another tenant's user and a made-up id: all "not found"
    expect(await detail(colleague.token, id)).toMatchObject({ status: 404, data: null });
    expect(await detail(other.admin.token, id)).toMatchObject({ status: 404, data: null });
    expect((await detail(h.admin.token, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    const bad = await t.api({ method: 'GET', url: '/job/detail', query: { id: 'x' }, token: h.admin.token });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ message: expect.stringContaining('任务编号无效') });
    const foreignCancel = await t.api({ method: 'POST', url: '/job/cancel', payload: { id }, token: colleague.token });
    expect(foreignCancel.statusCode).toBe(404);

    release();
    await expect
      .poll(async () => (await detail(h.admin.token, id)).data, { timeout: 15_000, interval: 200 })
      .toMatchObject({ state: 'completed', progress: 100, error: null });
  }, 40_000);

  it('should stop a running job its owner cancels at its next progress report, audited', async () => {
    const id = await enqueue('test.cancel', colleague);
    await expect
      .poll(async () => (await detail(colleague.token, id)).data?.state, { timeout: 15_000, interval: 200 })
      .toBe('active');
    const res = await t.api({ method: 'POST', url: '/job/cancel', payload: { id }, token: colleague.token });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { data: JobStatusVO }).data.state).toBe('cancelled');
    await expect.poll(() => cancelled.has(id), { timeout: 10_000, interval: 100 }).toBe(true);
    expect((await detail(colleague.token, id)).data?.state).toBe('cancelled');
    expect(await auditOf('job.cancel', id)).toEqual([
      {
        actor_id: colleague.id,
        old_value: { queue: 'test.cancel', state: 'active' },
        new_value: { state: 'cancelled' },
      },
    ]);
    const twice = await t.api({ method: 'POST', url: '/job/cancel', payload: { id }, token: colleague.token });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ message: '任务已结束，无法取消' });
  }, 40_000);

  it('should not exist when the transaction that enqueued it rolls back', async () => {
    let id = '';
    await expect(
      t.db.transaction(async (tx) => {
        id = await t.app.jobs.enqueue(tx, 'test.cancel', { tenantId: h.tenantId, userId: h.admin.id }, {}, {});
        throw new Error('保存失败');
      }),
    ).rejects.toThrow('保存失败');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const { rows } = await t.database.pool.query(
      'select 1 from pgboss.job where id = $1 union all select 1 from job_runs where job_id = $1',
      [id],
    );
    expect(rows).toEqual([]);
    expect((await detail(h.admin.token, id)).status).toBe(404);
  });

  it('should let the administrator cancel a queued job, which then never runs', async () => {
    const id = await enqueue('test.cancel', other.admin, {}, 3600);
    expect((await adminList({ queue: 'test.cancel', state: 'created' })).map((j) => j.id)).toContain(id);
    const res = await t.api({ method: 'POST', url: '/sys-job/cancel', payload: { id }, token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { data: JobAdminVO }).data).toMatchObject({
      id,
      state: 'cancelled',
      tenantId: other.tenantId,
      userId: other.admin.id,
    });
    expect(await auditOf('job.cancel', id)).toHaveLength(1);
    expect((await adminList({ state: 'cancelled' })).map((j) => j.id)).toContain(id);
    expect(cancelled.has(id)).toBe(false);
  });
});

describe('the job queue in the app', () => {
  it('should run the scheduled follow-up reminders once the app starts its jobs', async () => {
    await expect
      .poll(async () => (await adminList({ queue: FOLLOWUP_REMINDER_QUEUE, state: 'completed' })).length, {
        timeout: 20_000,
        interval: 250,
      })
      .toBeGreaterThanOrEqual(1);
    // pg-boss's own cron queue is not the administrator's business
    const all = await adminList({ limit: '500' });
    expect(all.length).toBeGreaterThan(0);
    expect(all.filter((j) => j.queue.startsWith('__pgboss'))).toEqual([]);
    const { rows } = await t.database.pool.query(`select 1 from pgboss.job where name = '__pgboss__send-it'`);
    expect(rows.length).toBeGreaterThan(0);
  }, 30_000);
});
