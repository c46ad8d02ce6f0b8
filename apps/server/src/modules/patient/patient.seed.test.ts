import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projects } from '../../db/schema';
import { resolvePhiKeys } from '../../lib/phi-crypto';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { seedDemoPatients } from './patient.seed';

type Body<T> = { status: number; data: T };
type Page = {
  records: { patientNo: string; name: string; idNumber: string | null; centerCode: string }[];
  total: number;
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('seedDemoPatients', () => {
  it('should add the demo patients once and let the running instance decrypt them', async () => {
    const keys = await resolvePhiKeys(t.config);
    expect(await seedDemoPatients(t.db, keys)).toBe(8);
    expect(await seedDemoPatients(t.db, keys)).toBe(0);
    const [hf] = await t.db.select().from(projects).where(eq(projects.code, 'HF-REG'));
    const list = async (username: string) => {
      const token = await t.login(username, 'Demo@2026');
      await t.api({ method: 'GET', url: `/web-project/change?projectId=${hf?.id ?? ''}`, token });
      const res = await t.api({ method: 'POST', url: '/patient-info/page', token, payload: { current: 1, size: 50 } });
      return res.json<Body<Page>>().data;
    };
    const all = await list('owner');
    expect(all.total).toBe(8);
    expect(all.records.map((p) => p.name)).toContain('欧阳明华');
    expect(all.records.every((p) => p.idNumber && /^\d{17}[\dX]$/.test(p.idNumber))).toBe(true);
    const c01 = await list('entry');
    expect(c01.records.every((p) => p.centerCode === 'C01')).toBe(true);
    expect(c01.total).toBe(5);
  });
});
