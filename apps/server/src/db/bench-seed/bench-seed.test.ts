import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idNumberFacts } from '@registry/shared/contracts/patient';
import { formRecords, patients, projects } from '../schema';
import { blindIndex, decryptPhi, resolvePhiKeys, type PhiKeys } from '../../lib/phi-crypto';
import { createBareTestApp, type TestApp } from '../../../test/test-app';
import { BENCH_DEFINITION } from './bench-definition';
import {
  BENCH_PASSWORD,
  BENCH_PROJECT_CODE,
  BENCH_USERNAMES,
  checkBenchRecord,
  seedBench,
  type BenchSeedReport,
} from './bench-seed';

const TODAY = '2026-11-24';
let t: TestApp;
let keys: PhiKeys;
let report: BenchSeedReport;

beforeAll(async () => {
  t = await createBareTestApp();
  keys = await resolvePhiKeys(t.config);
  report = await seedBench(t.database.ownerPool(), keys, { patients: 50, today: TODAY, batchSize: 20 });
});

afterAll(async () => {
  await t.close();
});

const benchPatients = () =>
  t.db.select().from(patients).where(eq(patients.projectId, report.project.projectId)).orderBy(asc(patients.seq));

describe('seedBench', () => {
  it('should load the patients and their CRF records it reports, numbered 1..N per center code', async () => {
    const rows = await benchPatients();
    expect(rows).toHaveLength(50);
    expect(report).toMatchObject({ patients: 50, firstSeq: 1, lastSeq: 50 });
    const codes = new Map(report.project.centers.map((c) => [c.id, c.code]));
    expect(rows.map((p) => p.patientNo)).toEqual(
      rows.map((p, i) => `${codes.get(p.centerId) ?? '?'}-${String(i + 1).padStart(4, '0')}`),
    );
    expect(new Set(rows.map((p) => p.centerId)).size).toBeGreaterThan(2);
    const records = await t.db.select().from(formRecords).where(eq(formRecords.projectId, report.project.projectId));
    expect(records).toHaveLength(report.records);
    expect(records.length).toBeGreaterThan(50 * 2);
    expect(records.every((r) => r.versionId === report.project.versionId)).toBe(true);
  });

  it('should store identity numbers and phones encrypted with the instance keys, with matching blind indexes', async () => {
    for (const p of await benchPatients()) {
      expect(p.idNumberEnc).not.toMatch(/\d{17}/);
      const idNumber = decryptPhi(keys, p.idNumberEnc ?? '');
      const facts = idNumberFacts(idNumber);
      expect(facts, idNumber).not.toBeNull();
      expect(facts).toEqual({ birthDate: p.birthDate, gender: p.gender });
      expect(p.idNumberBi).toBe(blindIndex(keys, idNumber));
      const phone = decryptPhi(keys, p.phoneEnc ?? '');
      expect(phone).toMatch(/^1[3-9]\d{9}$/);
      expect(p.phoneBi).toBe(blindIndex(keys, phone));
      expect(p.name).toMatch(/^[\u4e00-\u9fa5]{2,4}$/);
    }
  });

  it('should write records that the engine accepts for their status, stored as the engine stores them', async () => {
    const forms = new Map(BENCH_DEFINITION.categories.flatMap((c) => c.forms.map((f) => [f.key, f] as const)));
    const records = await t.db.select().from(formRecords).where(eq(formRecords.projectId, report.project.projectId));
    for (const r of records) {
      const form = forms.get(r.formKey);
      expect(form, r.formKey).toBeDefined();
      if (!form) continue;
      const data = r.data as Record<string, unknown>;
      expect(
        checkBenchRecord(form, { data, status: r.status }, TODAY),
        `${r.formKey} ${JSON.stringify(data)}`,
      ).toBeNull();
    }
    const labs = records.filter((r) => r.formKey === 'bench_labs');
    expect(labs.some((r) => ((r.data as { lb_rows?: unknown[] }).lb_rows?.length ?? 0) >= 2)).toBe(true);
    expect(records.some((r) => r.formKey === 'bench_followup' && r.instance >= 2)).toBe(true);
  });

  it('should let the app continue the numbering and keep counting on from a second seed', async () => {
    const [project] = await t.db
      .select()
      .from(projects)
      .where(and(eq(projects.id, report.project.projectId), eq(projects.code, BENCH_PROJECT_CODE)));
    const token = await t.login(BENCH_USERNAMES.entry('C02'), BENCH_PASSWORD);
    await t.api({ method: 'GET', url: `/web-project/change?projectId=${project?.id ?? ''}`, token });
    const created = await t.api({ method: 'POST', url: '/patient-info', token, payload: { name: '新患者' } });
    expect(created.statusCode).toBe(200);
    expect(created.json<{ data: { patientNo: string } }>().data.patientNo).toBe('C02-0051');

    const again = await seedBench(t.database.ownerPool(), keys, { patients: 5, today: TODAY, seed: 7 });
    expect(again).toMatchObject({ firstSeq: 52, lastSeq: 56 });
    expect(again.project.projectId).toBe(report.project.projectId);
    const page = await t.api({ method: 'POST', url: '/patient-info/page', token, payload: { current: 1, size: 5 } });
    expect(page.json<{ data: { total: number } }>().data.total).toBe(
      (await benchPatients()).filter((p) => p.centerId === report.project.centers[1]?.id).length,
    );
  });
});
