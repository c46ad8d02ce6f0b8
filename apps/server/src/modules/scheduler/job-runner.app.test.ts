import { describe, expect, it } from 'vitest';
import { createBareTestApp } from '../../../test/test-app';
import { FOLLOWUP_REMINDER_JOB } from '../followup/followup-reminder.job';
import { findJobRow } from './scheduler.repository';

describe('job runner in the app', () => {
  it('should start with the app when JOBS_ENABLED and stop when the app closes', async () => {
    const t = await createBareTestApp({ JOBS_ENABLED: 'true', JOBS_TICK_SECONDS: '1' });
    let closed = false;
    try {
      await expect.poll(async () => (await findJobRow(t.db, FOLLOWUP_REMINDER_JOB))?.runCount ?? 0).toBe(1);
      const row = await findJobRow(t.db, FOLLOWUP_REMINDER_JOB);
      expect(row).toMatchObject({ lockedUntil: null, lastError: null });
      await t.app.close();
      closed = true;
      expect(await t.app.jobs.tick()).toEqual([]); // stopped: nothing is due before its interval anyway
    } finally {
      if (!closed) await t.app.close();
      await t.database.close();
    }
  });

  it('should not run jobs in the test app unless asked', async () => {
    const t = await createBareTestApp();
    try {
      await new Promise((r) => setTimeout(r, 100));
      expect(await findJobRow(t.db, FOLLOWUP_REMINDER_JOB)).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});
