import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MigrationApplyResponse, MigrationPreviewResponse } from '@registry/shared/contracts/record-migration';
import { DEFAULT_MISSING_CODES, type Definition, type FieldDefinition } from '@registry/shared/forms/definition';
import { auditEvents, formRecords, recordValueVersions } from '../../db/schema';
import { buildPatient, hospital, member, project, type Account } from '../../../test/factories';
import { createBareTestApp, type TestApp } from '../../../test/test-app';

type Body<T = unknown> = { status: number; message: string; data: T; issues?: { path: string; message: string }[] };

let t: TestApp;
let h001: string;
/** The hospital administrator who owns every project of these tests. */
let owner: Account;

const definitionOf = (fields: FieldDefinition[]): Definition => ({
  missingCodes: DEFAULT_MISSING_CODES,
  categories: [{ key: 'base', title: '基线', forms: [{ key: 'vitals', title: '生命体征', fields }] }],
});
const V1 = definitionOf([
  { key: 'weight', label: '体重', type: 'decimal' },
  { key: 'height', label: '身高', type: 'integer' },
  { key: 'bmi', label: 'BMI', type: 'calc', formula: '[weight] / ([height] / 100) ^ 2', precision: 1 },
  { key: 'note', label: '备注', type: 'text' },
]);
// v2: 备注 removed, BMI with two decimals, a new field for the enrolled patients to fill
const V2 = definitionOf([
  { key: 'weight', label: '体重', type: 'decimal' },
  { key: 'height', label: '身高', type: 'integer' },
  { key: 'bmi', label: 'BMI', type: 'calc', formula: '[weight] / ([height] / 100) ^ 2', precision: 2 },
  { key: 'nyha', label: 'NYHA 分级', type: 'text' },
]);

async function publish(token: string, definition: Definition) {
  const draft = await t.api({ method: 'GET', url: '/form-definition/draft', token });
  const revision = draft.json<Body<{ revision: number }>>().data.revision;
  const saved = await t.api({ method: 'PUT', url: '/form-definition/draft', token, payload: { revision, definition } });
  expect(saved.statusCode, saved.body).toBe(200);
  const res = await t.api({
    method: 'POST',
    url: '/form-definition/publish',
    token,
    payload: { revision: saved.json<Body<{ revision: number }>>().data.revision, confirmDataLoss: true },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** A project of `owner` with v1 published, two patients with a submitted vitals record each, then v2 published. */
async function projectWithOldRecords() {
  const p = await project(t, owner);
  const token = await t.login(owner.username, owner.password);
  await t.api({ method: 'GET', url: `/web-project/change?projectId=${p.id}`, token });
  await publish(token, V1);
  const a = await buildPatient(t.db, h001, p.id);
  const b = await buildPatient(t.db, h001, p.id);
  for (const [patient, data] of [
    [a, { weight: 72.5, height: 170 }],
    [b, { weight: 80, height: 175, note: '门诊复查' }],
  ] as const) {
    const res = await t.api({
      method: 'POST',
      url: '/form-record/save',
      token,
      payload: { patientId: patient.id, formKey: 'vitals', rowVersion: 0, data, action: 'submit' },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  await publish(token, V2);
  return { token, a, b, project: p };
}

const preview = (token: string, payload: Record<string, unknown> = {}) =>
  t.api({ method: 'POST', url: '/form-record/migration/preview', token, payload });
const apply = (token: string, payload: Record<string, unknown>) =>
  t.api({ method: 'POST', url: '/form-record/migration/apply', token, payload });
const recordOf = async (patientId: string) => {
  const [row] = await t.db.select().from(formRecords).where(eq(formRecords.patientId, patientId));
  return row;
};
const versionNo = async (token: string, patientId: string) => {
  const res = await t.api({
    method: 'GET',
    url: `/form-record/detail?patientId=${patientId}&formKey=vitals&instance=1`,
    token,
  });
  return res.json<Body<{ versionNo: number }>>().data.versionNo;
};

beforeAll(async () => {
  t = await createBareTestApp();
  const h = await hospital(t);
  h001 = h.tenantId;
  owner = h.admin;
});
afterAll(async () => {
  await t?.close();
});

describe('CRF version migration', () => {
  it('should preview which records move, what they lose and which calculations change, writing nothing', async () => {
    const { token, a, b } = await projectWithOldRecords();
    const res = await preview(token);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json<Body<MigrationPreviewResponse>>().data;
    expect(data).toMatchObject({ total: 2, lossy: 1, locked: 0 });
    // the record that loses a value comes first
    expect(data.items[0]).toMatchObject({
      patientId: b.id,
      patientNo: b.patientNo,
      formTitle: '生命体征',
      fromVersionNo: 1,
      toVersionNo: 2,
      lost: [{ path: 'note', label: '备注', value: '门诊复查', reason: '新版本中已没有该字段' }],
      recalculated: [{ path: 'bmi', label: 'BMI', before: '26.1', after: '26.12' }],
    });
    expect(data.items[1]).toMatchObject({ patientId: a.id, lost: [] });
    expect(await versionNo(token, a.id)).toBe(1);
  });

  it('should move the records that lose nothing, keep the others until the loss is accepted, and audit each move', async () => {
    const { token, a, b } = await projectWithOldRecords();
    const noReason = await apply(token, { reason: ' ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json<Body>().issues).toEqual([{ path: 'reason', message: '原因：请填写迁移原因' }]);

    const first = await apply(token, { reason: '启用第2版' });
    expect(first.json<Body<MigrationApplyResponse>>().data).toEqual({ migrated: 1, skipped: 1, remaining: 0 });
    expect(await versionNo(token, a.id)).toBe(2);
    expect(await versionNo(token, b.id)).toBe(1);
    const movedA = await recordOf(a.id);
    expect(movedA).toMatchObject({ status: 'submitted', data: { weight: 72.5, height: 170, bmi: 25.09 } });
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, movedA?.id ?? ''), eq(auditEvents.action, 'form_record.migrate')));
    expect(event?.reason).toBe('表单由第 1 版迁移到第 2 版：启用第2版');
    expect(event?.oldValue).toMatchObject({ versionId: expect.any(String), values: { bmi: 25.1 } });
    expect(event?.newValue).toMatchObject({ versionId: movedA?.versionId, values: { bmi: 25.09 } });

    const second = await apply(token, { reason: '启用第2版', acceptLoss: true });
    expect(second.json<Body<MigrationApplyResponse>>().data).toEqual({ migrated: 1, skipped: 0, remaining: 0 });
    const movedB = await recordOf(b.id);
    expect(movedB?.data).toEqual({ weight: 80, height: 175, bmi: 26.12 });
    // the value that could not be carried stays in the data point's history, with who removed it and why
    const history = await t.db
      .select()
      .from(recordValueVersions)
      .where(and(eq(recordValueVersions.recordId, movedB?.id ?? ''), eq(recordValueVersions.path, 'note')));
    expect(history.map((h) => h.value)).toEqual(['门诊复查', null]);
    expect(history[1]?.reason).toBe('表单由第 1 版迁移到第 2 版：启用第2版');

    expect((await preview(token)).json<Body<MigrationPreviewResponse>>().data).toMatchObject({ total: 0, items: [] });
    expect((await apply(token, { reason: '再来一次' })).json<Body<MigrationApplyResponse>>().data).toEqual({
      migrated: 0,
      skipped: 0,
      remaining: 0,
    });
  });

  it('should move one record at a time, leave locked records alone, and bound a call by its limit', async () => {
    const { token, a, b } = await projectWithOldRecords();
    const one = await apply(token, { patientId: a.id, formKey: 'vitals', instance: 1, reason: '单条迁移' });
    expect(one.json<Body<MigrationApplyResponse>>().data).toEqual({ migrated: 1, skipped: 0, remaining: 0 });
    expect(await versionNo(token, b.id)).toBe(1);

    const record = await recordOf(b.id);
    await t.db
      .update(formRecords)
      .set({ status: 'locked' })
      .where(eq(formRecords.id, record?.id ?? ''));
    const locked = (await preview(token, { patientId: b.id })).json<Body<MigrationPreviewResponse>>().data;
    expect(locked).toMatchObject({ total: 1, locked: 1, items: [{ locked: true }] });
    const refused = await apply(token, { patientId: b.id, reason: '锁定的不动', acceptLoss: true });
    expect(refused.json<Body<MigrationApplyResponse>>().data).toEqual({ migrated: 0, skipped: 1, remaining: 0 });
    expect(await versionNo(token, b.id)).toBe(1);
  });

  it('should answer 404 for a patient out of scope and 403 without patient.edit', async () => {
    const { token, project: p } = await projectWithOldRecords();
    const missing = await preview(token, { patientId: '00000000-0000-4000-8000-000000000000' });
    expect(missing.statusCode).toBe(404);
    // a monitor of the project (no patient.edit)
    const monitor = (await member(t, p, 'monitor', { centerId: null })).token;
    expect((await apply(monitor, { reason: 'x' })).statusCode).toBe(403);
  });
});
