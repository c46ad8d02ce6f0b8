import { and, asc, eq, getTableColumns, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Definition, FormDefinition } from '@registry/shared/forms/definition';
import { validateRecord } from '@registry/shared/forms/record';
import { findForm } from '@registry/shared/forms/walk';
import { auditEvents, dataQueries, formRecords, formVersions, recordValueVersions } from '../../db/schema';
import { HF_REG_DEFINITION } from '../../db/seed-database';
import { AppError } from '../../lib/errors';
import type { AuditContext } from '../../plugins/audit';
import { hospital, member, patient, project, publishCrf } from '../../../test/factories';
import { createBareTestApp, type TestApp } from '../../../test/test-app';
import { writeRecord, type RecordWrite } from './record-writer';

let t: TestApp;
let base: Omit<RecordWrite, 'form' | 'existing' | 'data' | 'softIssues' | 'status'>;
let definition: Definition;
let ctx: AuditContext;
let patientIds: string[];

const formOf = (key: string): FormDefinition => {
  const form = findForm(definition, key);
  if (!form) throw new Error(`form ${key} missing`);
  return form;
};
const check = (form: FormDefinition, data: Record<string, unknown>) =>
  validateRecord(form, data, {
    mode: 'draft',
    today: '2026-04-01',
    missingCodes: definition.missingCodes.map((m) => m.code),
  });
/** The versions of a record; `value` read as text (Drizzle parses a JSON string value a second time). */
const versionsOf = async (recordId: string) =>
  (
    await t.db
      .select({
        ...getTableColumns(recordValueVersions),
        value: sql<string | null>`${recordValueVersions.value}::text`,
      })
      .from(recordValueVersions)
      .where(eq(recordValueVersions.recordId, recordId))
      .orderBy(asc(recordValueVersions.id))
  ).map((v) => ({ ...v, value: v.value === null ? null : (JSON.parse(v.value) as unknown) }));
const auditOf = (recordId: string) =>
  t.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.entityType, 'form_record'), eq(auditEvents.entityId, recordId)))
    .orderBy(asc(auditEvents.id));

beforeAll(async () => {
  t = await createBareTestApp();
  // A project whose CRF is the heart-failure definition (published through the API), three patients, and a
  // data-entry member who writes the records.
  const hf = await project(t, (await hospital(t)).admin);
  const published = await publishCrf(t, hf.owner.token, HF_REG_DEFINITION);
  const entry = await member(t, hf, 'data_entry', { centerId: null });
  const rows = [];
  for (const name of ['甲', '乙', '丙'])
    rows.push(await patient(t, hf.owner.token, { name, centerId: hf.defaultCenterId }));
  const [version] = await t.db.select().from(formVersions).where(eq(formVersions.id, published.id));
  if (!version) throw new Error('version missing');
  definition = version.definition as Definition;
  patientIds = rows.map((r) => r.id);
  ctx = { actorId: entry.id, tenantId: hf.tenantId, requestId: 'req-writer', ip: '127.0.0.1' };
  base = {
    tenantId: hf.tenantId,
    projectId: hf.id,
    patientId: rows[0]?.id ?? '',
    versionId: version.id,
    source: { type: 'manual' },
    actorId: entry.id,
    at: new Date('2026-03-02T02:00:00Z'),
  };
});
afterAll(async () => {
  await t?.close();
});

describe('writeRecord', () => {
  it('should insert the record, one version per leaf (calc as calc) and one audit event with PHI masked when creating', async () => {
    const form = formOf('demographics');
    const verdict = check(form, { name: '王建国', gender: '1', birth_date: '1958-03-14', ethnicity: '01' });
    const result = await t.db.transaction((tx) =>
      writeRecord(tx, ctx, {
        ...base,
        form,
        existing: null,
        data: verdict.data,
        softIssues: verdict.issues,
        status: 'draft',
      }),
    );
    expect(result.written).toBe(true);
    expect(result.record).toMatchObject({ instance: 1, status: 'draft', rowVersion: 1 });
    const versions = await versionsOf(result.record.id);
    expect(versions.map((v) => [v.path, v.value, v.sourceType, v.recordRowVersion])).toEqual([
      ['name', '王建国', 'manual', 1],
      ['gender', '1', 'manual', 1],
      ['birth_date', '1958-03-14', 'manual', 1],
      ['age', 68, 'calc', 1],
      ['ethnicity', '01', 'manual', 1],
    ]);
    const [event, ...more] = await auditOf(result.record.id);
    expect(more).toEqual([]);
    expect(event).toMatchObject({ action: 'form_record.create', actorId: ctx.actorId, oldValue: null });
    expect((event?.newValue as { values: Record<string, unknown> }).values).toEqual({
      name: '[PHI]',
      gender: '1',
      birth_date: '[PHI]',
      age: 68,
      ethnicity: '01',
    });
    expect(JSON.stringify(event)).not.toContain('王建国');
  });

  it('should version group cells by row and a removed value as null, with the reason, when updating', async () => {
    const form = formOf('laboratory');
    const first = check(form, {
      lab_date: '2026-03-01',
      nt_probnp: 1800,
      other_labs: [
        { lab_item: '血钾', lab_result: '4.1', lab_unit: 'mmol/L' },
        { lab_item: '血钠', lab_result: '138', lab_unit: 'mmol/L' },
      ],
    });
    const created = await t.db.transaction((tx) =>
      writeRecord(tx, ctx, { ...base, form, existing: null, data: first.data, softIssues: [], status: 'submitted' }),
    );
    expect(created.record.status).toBe('submitted');
    const next = check(form, {
      lab_date: '2026-03-01',
      other_labs: [{ lab_item: '血钾', lab_result: '4.5', lab_unit: 'mmol/L' }],
    });
    const updated = await t.db.transaction((tx) =>
      writeRecord(tx, ctx, {
        ...base,
        form,
        existing: created.record,
        data: next.data,
        softIssues: [],
        status: 'submitted',
        reason: '复核化验单',
      }),
    );
    expect(updated.record.rowVersion).toBe(2);
    const second = (await versionsOf(created.record.id)).filter((v) => v.recordRowVersion === 2);
    expect(second.map((v) => [v.path, v.value, v.reason])).toEqual([
      ['nt_probnp', null, '复核化验单'],
      ['other_labs.0.lab_result', '4.5', '复核化验单'],
      ['other_labs.1.lab_item', null, '复核化验单'],
      ['other_labs.1.lab_result', null, '复核化验单'],
      ['other_labs.1.lab_unit', null, '复核化验单'],
    ]);
    const events = await auditOf(created.record.id);
    expect(events.map((e) => e.action)).toEqual(['form_record.create', 'form_record.update']);
    expect(events[1]).toMatchObject({
      reason: '复核化验单',
      oldValue: { status: 'submitted', rowVersion: 1, values: { nt_probnp: 1800, 'other_labs.0.lab_result': '4.1' } },
      newValue: { status: 'submitted', rowVersion: 2, values: { nt_probnp: null, 'other_labs.0.lab_result': '4.5' } },
    });
  });

  it('should move an updated record to the version its new data was checked against', async () => {
    const form = formOf('vital_signs');
    const created = await t.db.transaction((tx) =>
      writeRecord(tx, ctx, {
        ...base,
        patientId: patientIds[2] ?? '',
        form,
        existing: null,
        data: check(form, { height: 170, weight: 65 }).data,
        softIssues: [],
        status: 'draft',
      }),
    );
    const [v1] = await t.db.select().from(formVersions).where(eq(formVersions.id, base.versionId));
    const [v2] = await t.db
      .insert(formVersions)
      .values({
        tenantId: base.tenantId,
        projectId: base.projectId,
        versionNo: 99,
        definition,
        changes: [],
        publishedBy: base.actorId,
      })
      .returning();
    if (!v1 || !v2) throw new Error('versions missing');
    const updated = await t.db.transaction((tx) =>
      writeRecord(tx, ctx, {
        ...base,
        patientId: patientIds[2] ?? '',
        versionId: v2.id,
        form,
        existing: created.record,
        data: check(form, { height: 170, weight: 66 }).data,
        softIssues: [],
        status: 'draft',
        source: { type: 'import', ref: { batchId: 'b-1', fileName: '导入.xlsx', row: 3 } },
      }),
    );
    const [stored] = await t.db.select().from(formRecords).where(eq(formRecords.id, created.record.id));
    expect(stored?.versionId).toBe(v2.id);
    expect(updated.record.versionId).toBe(v2.id);
    const events = await auditOf(created.record.id);
    expect(events.at(-1)?.newValue).toMatchObject({ versionId: v2.id });
  });

  it('should write nothing when neither the data nor the status changes', async () => {
    const form = formOf('medical_history');
    const verdict = check(form, { smoking: '0', primary_diagnosis: 'I00-I99' });
    const created = await t.db.transaction((tx) =>
      writeRecord(tx, ctx, { ...base, form, existing: null, data: verdict.data, softIssues: [], status: 'draft' }),
    );
    const again = await t.db.transaction((tx) =>
      writeRecord(tx, ctx, {
        ...base,
        form,
        existing: created.record,
        data: { ...verdict.data },
        softIssues: [],
        status: 'draft',
      }),
    );
    expect(again.written).toBe(false);
    expect(await auditOf(created.record.id)).toHaveLength(1);
    expect(await versionsOf(created.record.id)).toHaveLength(2);
  });

  it('should refuse with 409 and roll back when the record changed since it was read', async () => {
    const form = formOf('vital_signs');
    const v1 = check(form, { height: 170, weight: 70, sbp: 130, dbp: 80 });
    const created = await t.db.transaction((tx) =>
      writeRecord(tx, ctx, { ...base, form, existing: null, data: v1.data, softIssues: [], status: 'draft' }),
    );
    const write = (weight: number) =>
      t.db.transaction((tx) =>
        writeRecord(tx, ctx, {
          ...base,
          form,
          existing: created.record,
          data: check(form, { height: 170, weight, sbp: 130, dbp: 80 }).data,
          softIssues: [],
          status: 'draft',
        }),
      );
    await write(72);
    const error = await write(75).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ statusCode: 409, message: '该表单已被他人修改，请刷新后查看变更' });
    const [stored] = await t.db.select().from(formRecords).where(eq(formRecords.id, created.record.id));
    expect(stored).toMatchObject({ rowVersion: 2, data: { weight: 72 } });
    expect(await versionsOf(created.record.id)).toHaveLength(5 + 2);
    expect(await auditOf(created.record.id)).toHaveLength(2);
  });

  it('should answer 409 to the creates that lose a race for the same instance', async () => {
    const form = formOf('echocardiography');
    const data = check(form, { echo_date: '2026-03-01', lvef: 45, nyha: '2' }).data;
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () =>
        t.db.transaction((tx) =>
          writeRecord(tx, ctx, {
            ...base,
            patientId: patientIds[1] ?? '',
            form,
            existing: null,
            data,
            softIssues: [],
            status: 'draft',
          }),
        ),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused.every((r) => (r.reason as AppError).statusCode === 409)).toBe(true);
  });

  it('should give each concurrent new instance of a repeating form its own number when asked for the next', async () => {
    const form = formOf('followup_visit');
    const data = check(form, { fu_date: '2026-03-01', vital_status: '1' }).data;
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        t.db.transaction((tx) =>
          writeRecord(tx, ctx, {
            ...base,
            patientId: patientIds[2] ?? '',
            form,
            existing: null,
            instance: 'next',
            data,
            softIssues: [],
            status: 'draft',
          }),
        ),
      ),
    );
    expect(results.map((r) => r.record.instance).sort()).toEqual([1, 2, 3, 4]);
  });

  it('should open an auto query for a new soft issue and close it once the value no longer triggers it', async () => {
    const form = formOf('echocardiography');
    const bad = check(form, { echo_date: '2026-03-01', lvef: 85, nyha: '3' });
    expect(bad.issues).toEqual([expect.objectContaining({ path: 'lvef', level: 'soft' })]);
    const created = await t.db.transaction((tx) =>
      writeRecord(tx, ctx, { ...base, form, existing: null, data: bad.data, softIssues: bad.issues, status: 'draft' }),
    );
    expect(created.queriesOpened).toBe(1);
    const queries = () => t.db.select().from(dataQueries).where(eq(dataQueries.recordId, created.record.id));
    expect(await queries()).toEqual([
      expect.objectContaining({ path: 'lvef', origin: 'auto', status: 'open', message: bad.issues[0]?.message }),
    ]);
    // still out of range (another value): the query stays, no second one
    const still = check(form, { echo_date: '2026-03-01', lvef: 88, nyha: '3' });
    const kept = await t.db.transaction((tx) =>
      writeRecord(tx, ctx, {
        ...base,
        form,
        existing: created.record,
        data: still.data,
        softIssues: still.issues,
        status: 'draft',
      }),
    );
    expect(kept.queriesOpened + kept.queriesClosed).toBe(0);
    const fixed = check(form, { echo_date: '2026-03-01', lvef: 58, nyha: '3' });
    const done = await t.db.transaction((tx) =>
      writeRecord(tx, ctx, {
        ...base,
        form,
        existing: kept.record,
        data: fixed.data,
        softIssues: fixed.issues,
        status: 'draft',
      }),
    );
    expect(done.queriesClosed).toBe(1);
    expect(await queries()).toEqual([
      expect.objectContaining({ status: 'closed', closeNote: '数据已修正，质疑自动关闭', closedBy: ctx.actorId }),
    ]);
    const events = await auditOf(created.record.id);
    expect(events.map((e) => (e.newValue as { queriesClosed?: number }).queriesClosed ?? 0)).toEqual([0, 0, 1]);
  });

  it('should keep the source reference on imported values', async () => {
    const form = formOf('medications');
    const verdict = check(form, { meds: [{ drug_name: '沙库巴曲缬沙坦', dose: '50 mg', frequency: 'bid' }] });
    const ref = { batchId: '8d5e0e40-3a3c-4a57-9f7a-2f0d7d1d3b11', fileName: '用药.xlsx', row: 3 };
    const created = await t.db.transaction((tx) =>
      writeRecord(tx, ctx, {
        ...base,
        form,
        existing: null,
        data: verdict.data,
        softIssues: [],
        status: 'draft',
        source: { type: 'import', ref },
      }),
    );
    const versions = await versionsOf(created.record.id);
    expect(versions.map((v) => [v.path, v.sourceType, v.sourceRef])).toEqual([
      ['meds.0.drug_name', 'import', ref],
      ['meds.0.dose', 'import', ref],
      ['meds.0.frequency', 'import', ref],
    ]);
    const [event] = await auditOf(created.record.id);
    expect(event?.newValue).toMatchObject({ source: 'import', sourceRef: ref });
  });

  it('should keep record_value_versions append-only (the trigger refuses UPDATE and DELETE)', async () => {
    const [any] = await t.db.select().from(recordValueVersions).limit(1);
    expect(any).toBeDefined();
    const id = any?.id ?? 0;
    await expect(
      t.database.pool.query('update record_value_versions set value = $1 where id = $2', ['"x"', id]),
    ).rejects.toThrow(/append-only/);
    await expect(t.database.pool.query('delete from record_value_versions where id = $1', [id])).rejects.toThrow(
      /append-only/,
    );
  });
});
