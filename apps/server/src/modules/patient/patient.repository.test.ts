import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedBench, type BenchSeedReport } from '../../db/bench-seed/bench-seed';
import { patients } from '../../db/schema';
import { resolvePhiKeys } from '../../lib/phi-crypto';
import { createBareTestApp, type TestApp } from '../../../test/test-app';
import type { ProjectScope } from '../../domain/scope/project-scope';
import { pagePatients } from './patient.repository';

let t: TestApp;
let bench: BenchSeedReport;
let owner: ProjectScope;

beforeAll(async () => {
  t = await createBareTestApp();
  bench = await seedBench(t.database.ownerPool(), await resolvePhiKeys(t.config), {
    patients: 60,
    today: '2026-11-24',
  });
  owner = {
    tenantId: bench.project.tenantId,
    userId: bench.project.ownerId,
    projectId: bench.project.projectId,
    rootProjectId: bench.project.projectId,
    centerId: null,
    permissions: ['patient.list', 'patient.pii'],
  };
});

afterAll(async () => {
  await t.close();
});

describe('pagePatients totals', () => {
  it('should count exactly up to the cap', async () => {
    const page = await pagePatients(t.db, owner, { piiSearch: true }, { current: 1, size: 10, countCap: 60 });
    expect(page).toMatchObject({ total: 60, totalExact: true });
    expect(page.records).toHaveLength(10);
  });

  it('should answer the planner’s estimate, never below the cap, when more rows match than the cap', async () => {
    await t.database.ownerPool().query('analyze patients'); // the owner: the app's role may not analyze
    const page = await pagePatients(t.db, owner, { piiSearch: true }, { current: 1, size: 10, countCap: 20 });
    expect(page.totalExact).toBe(false);
    expect(page.total).toBeGreaterThanOrEqual(21);
    expect(page.total).toBeLessThan(1000);
  });

  it('should count only the center of a center-scoped member', async () => {
    const center = bench.project.centers[0]?.id ?? '';
    const live = await t.db.select({ id: patients.id }).from(patients).where(eq(patients.centerId, center));
    const page = await pagePatients(t.db, { ...owner, centerId: center }, { piiSearch: true }, { current: 1, size: 5 });
    expect(page).toMatchObject({ total: live.length, totalExact: true });
  });
});
