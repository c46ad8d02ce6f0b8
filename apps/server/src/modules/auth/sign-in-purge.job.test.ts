import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_PURGE_QUEUE } from '../../domain/jobs/job-queues';
import { countRows, createBareTestApp, type TestApp } from '../../../test/test-app';
import { createSignInPurgeJob, SIGN_IN_PURGE_JOB } from './sign-in-purge.job';

let t: TestApp;
beforeAll(async () => {
  t = await createBareTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('sign-in purge job', () => {
  it("should be one of the app's scheduled jobs and delete a captcha a day after it expired", async () => {
    expect(SIGN_IN_PURGE_JOB).toBe(SIGN_IN_PURGE_QUEUE);
    expect(t.app.jobs.names()).toContain(SIGN_IN_PURGE_JOB);
    await t.api({ method: 'GET', url: '/auth/captcha' });
    expect(await countRows(t, 'captchas')).toBe(1);
    const job = createSignInPurgeJob({ db: t.db, clock: t.clock });

    await job.run();
    expect(await countRows(t, 'captchas')).toBe(1); // not expired long enough

    t.clock.advanceMinutes(25 * 60);
    await job.run();
    expect(await countRows(t, 'captchas')).toBe(0);
  });
});
