import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, createBareTestApp, type TestApp } from '../../../test/test-app';
import { SIGN_IN_PURGE_JOB } from './sign-in-purge.job';

let t: TestApp;
beforeAll(async () => {
  t = await createBareTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('sign-in purge job', () => {
  it("should run in the app's job runner and delete a captcha a day after it expired", async () => {
    await t.api({ method: 'GET', url: '/auth/captcha' });
    expect(await countRows(t, 'captchas')).toBe(1);

    expect(await t.app.jobs.tick()).toContain(SIGN_IN_PURGE_JOB);
    expect(await countRows(t, 'captchas')).toBe(1); // not expired long enough

    t.clock.advanceMinutes(25 * 60);
    expect(await t.app.jobs.tick()).toContain(SIGN_IN_PURGE_JOB);
    expect(await countRows(t, 'captchas')).toBe(0);
  });
});
