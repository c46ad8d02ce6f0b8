import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FormRecordVO, RecordSummary } from '@registry/shared/contracts/form-record';
import {
  auditEvents,
  dataQueries,
  formRecords,
  patients,
  projects,
  recordValueVersions,
  sdvMarks,
} from '../../db/schema';
import { resolvePhiKeys } from '../../lib/phi-crypto';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { seedDemoPatients } from '../patient/patient.seed';
import { seedDemoRecords } from './patient-record.seed';

type Body<T> = { status: number; data: T };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedDemoPatients(t.db, await resolvePhiKeys(t.config));
});
afterAll(async () => {
  await t?.close();
});

describe('seedDemoRecords', () => {
  it('should write the demo records once, with their history, verification, auto query and audit events', async () => {
    const [first, second] = await Promise.all([seedDemoRecords(t.db), seedDemoRecords(t.db)]);
    expect([first, second].sort()).toEqual([0, 12]);
    expect(await seedDemoRecords(t.db)).toBe(0);

    const [hf] = await t.db.select().from(projects).where(eq(projects.code, 'HF-REG'));
    const [p1] = await t.db
      .select()
      .from(patients)
      .where(and(eq(patients.projectId, hf?.id ?? ''), eq(patients.patientNo, 'C01-0001')));
    const [p2] = await t.db
      .select()
      .from(patients)
      .where(and(eq(patients.projectId, hf?.id ?? ''), eq(patients.patientNo, 'C01-0002')));
    const token = await t.login('entry', 'Demo@2026');
    await t.api({ method: 'GET', url: `/web-project/change?projectId=${hf?.id}`, token });

    const records = (await t.api({ method: 'GET', url: `/form-record/patient/${p1?.id}`, token })).json<
      Body<{ records: RecordSummary[] }>
    >().data.records;
    expect(Object.fromEntries(records.map((r) => [r.formKey, r.status]))).toEqual({
      demographics: 'submitted',
      echocardiography: 'verified',
      laboratory: 'draft',
      medical_history: 'submitted',
      vital_signs: 'submitted',
    });

    const vitals = (
      await t.api({ method: 'GET', url: `/form-record/detail?patientId=${p1?.id}&formKey=vital_signs`, token })
    ).json<Body<FormRecordVO>>().data;
    expect(vitals.points.find((p) => p.path === 'weight')).toMatchObject({ versions: 2, lastSource: 'manual' });
    const weight = await t.db
      .select()
      .from(recordValueVersions)
      .where(and(eq(recordValueVersions.recordId, vitals.id ?? ''), eq(recordValueVersions.path, 'weight')))
      .orderBy(asc(recordValueVersions.id));
    expect(weight.map((v) => v.reason)).toEqual([null, '护士复测体重，更正录入值']);

    const echo = records.find((r) => r.formKey === 'echocardiography');
    expect(
      await t.db
        .select()
        .from(sdvMarks)
        .where(eq(sdvMarks.recordId, echo?.id ?? '')),
    ).toHaveLength(4);
    const lab = (
      await t.api({ method: 'GET', url: `/form-record/detail?patientId=${p1?.id}&formKey=laboratory`, token })
    ).json<Body<FormRecordVO>>().data;
    expect((lab.data.other_labs as unknown[]).length).toBe(3);

    const open = await t.db
      .select()
      .from(dataQueries)
      .innerJoin(formRecords, eq(formRecords.id, dataQueries.recordId))
      .where(eq(formRecords.patientId, p2?.id ?? ''));
    expect(open.map((q) => [q.data_queries.path, q.data_queries.origin, q.data_queries.status])).toEqual([
      ['lvef', 'auto', 'open'],
    ]);
    const ids = (await t.db.select({ id: formRecords.id }).from(formRecords)).map((r) => r.id);
    const events = await t.db.select().from(auditEvents).where(inArray(auditEvents.entityId, ids));
    expect(events.length).toBe(12 + 2);
  });

  it('should write the demo records’ bound fields from their patients', async () => {
    await seedDemoRecords(t.db);
    const [hf] = await t.db.select().from(projects).where(eq(projects.code, 'HF-REG'));
    const [p2] = await t.db
      .select()
      .from(patients)
      .where(and(eq(patients.projectId, hf?.id ?? ''), eq(patients.patientNo, 'C01-0002')));
    const [record] = await t.db
      .select()
      .from(formRecords)
      .where(and(eq(formRecords.patientId, p2?.id ?? ''), eq(formRecords.formKey, 'demographics')));
    // the seed's step gave no phone and no identity number: the record holds the patient's
    const stored = record?.data as Record<string, unknown>;
    expect(stored).toMatchObject({ name: '李秀英', gender: '2', birth_date: '1962-07-21', phone: '13901010002' });
    expect(stored.id_number).toMatch(/^11010819620721102[\dX]$/);
  });
});
