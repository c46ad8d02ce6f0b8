import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taskState } from '@registry/shared/followup/schedule';
import { followupPlans, followupTasks, patients, projects, users } from '../../db/schema';
import { resolvePhiKeys } from '../../lib/phi-crypto';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { seedDemoRecords } from '../patient-record/patient-record.seed';
import { seedDemoPatients } from '../patient/patient.seed';
import { seedDemoFollowup } from './followup-plan.seed';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('seedDemoFollowup', () => {
  it('should do nothing without the demo patients', async () => {
    expect(await seedDemoFollowup(t.db)).toBe(0);
  });

  it.each(['2026-11-24T01:00:00Z', '2027-06-30T18:00:00Z', '2029-02-28T23:00:00Z'])(
    'should seed an active plan with due, overdue, upcoming and done tasks on %s, once',
    async (instant) => {
      // a database of its own for each seed day (contacts are append-only)
      await t.close();
      t = await createTestApp();
      await seedDemoPatients(t.db, await resolvePhiKeys(t.config));
      await seedDemoRecords(t.db);
      const now = new Date(instant);
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(now);
      expect(await seedDemoFollowup(t.db, now)).toBeGreaterThan(0);
      expect(await seedDemoFollowup(t.db, now)).toBe(0);
      const [hf] = await t.db.select().from(projects).where(eq(projects.code, 'HF-REG'));
      const plans = await t.db
        .select()
        .from(followupPlans)
        .where(eq(followupPlans.projectId, hf?.id ?? ''));
      expect(plans.map((p) => [p.name, p.status]).sort()).toEqual([
        ['季度电话随访（示例）', 'draft'],
        ['心衰出院随访', 'active'],
      ]);
      const active = plans.find((p) => p.status === 'active');
      const tasks = await t.db
        .select()
        .from(followupTasks)
        .where(eq(followupTasks.planId, active?.id ?? ''));
      const states = new Set(tasks.map((x) => taskState(x, today)));
      for (const s of ['due', 'overdue', 'upcoming', 'done']) expect(states, s).toContain(s);
      const [nurse] = await t.db.select().from(users).where(eq(users.username, 'nurse'));
      expect(tasks.some((x) => x.status === 'open' && x.ownerId === nurse?.id)).toBe(true);
      expect(tasks.some((x) => x.status === 'open' && x.ownerId === null)).toBe(true);
      // the patients the seed enrolled are no longer screening (筛选中) on the worklist
      const seeded = await t.db
        .select({ patientNo: patients.patientNo, status: patients.status })
        .from(patients)
        .where(inArray(patients.patientNo, ['C01-0001', 'C01-0003', 'C01-0005', 'C02-0007', 'C02-0008']));
      expect(seeded).toHaveLength(5);
      expect(seeded.filter((p) => p.status === 'screening')).toEqual([]);
      const [deceased] = await t.db.select().from(patients).where(eq(patients.status, 'deceased'));
      expect(tasks.filter((x) => x.patientId === deceased?.id)).toEqual([]);
    },
  );
});
