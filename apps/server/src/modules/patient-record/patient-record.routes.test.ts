import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditPageResponse } from '@registry/shared/contracts/audit';
import type { DataQueryVO, FormRecordVO, RecordSummary, ValueVersionVO } from '@registry/shared/contracts/form-record';
import type { Definition } from '@registry/shared/forms/definition';
import { auditEvents, dataQueries, formRecords, patients, projects } from '../../db/schema';
import { withCheck } from '../../db/demo-patients';
import { HF_REG_DEFINITION, HFPEF_DEFINITION } from '../../db/seed-database';
import {
  center,
  enterProject,
  hospital,
  member,
  patient,
  project,
  publishCrf,
  type Account,
} from '../../../test/factories';
import { countRows, createBareTestApp, type TestApp } from '../../../test/test-app';

type Body<T = unknown> = { status: number; message: string; data: T; issues?: { path: string; message: string }[] };
type History = { recordId: string; versions: ValueVersionVO[]; queries: DataQueryVO[] };

let t: TestApp;
let owner: string;
let entry: string;
let entry2: string;
let monitor: string;
let viewer: string;
/** patient.list + patient.edit, no patient.pii (a custom role). */
let clerk: string;
/** The hospital administrator who owns the project and its sub-project. */
let ownerAccount: Account;
let hfId: string;
let subId: string;
/** Patients of the project: 1, 2, 4 and 5 at C01, 3 at C01 in the sub-project's cohort, 6 at C02. */
const P: Record<string, string> = {};

const call = (token: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
  t.api({ method, url, token, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
const save = (token: string, payload: Record<string, unknown>) => call(token, 'POST', '/form-record/save', payload);
const detail = async (token: string, patientId: string, formKey: string, instance = 1) =>
  call(token, 'GET', `/form-record/detail?patientId=${patientId}&formKey=${formKey}&instance=${instance}`);
const history = async (token: string, recordId: string, extra = '') =>
  (await call(token, 'GET', `/form-record/history?recordId=${recordId}${extra}`)).json<Body<History>>().data;
const summaries = async (token: string, patientId: string) =>
  (await call(token, 'GET', `/form-record/patient/${patientId}`)).json<Body<{ records: RecordSummary[] }>>().data
    .records;
const auditOf = (recordId: string) =>
  t.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.entityType, 'form_record'), eq(auditEvents.entityId, recordId)))
    .orderBy(asc(auditEvents.id));

/** Saves and expects 200: the record answered. */
async function saved(token: string, payload: Record<string, unknown>): Promise<FormRecordVO> {
  const res = await save(token, payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Body<FormRecordVO>>().data;
}

const VITALS = { vs_date: '2026-02-01', height: 170, weight: 72.5, sbp: 132, dbp: 84, heart_rate: 76 };

beforeAll(async () => {
  t = await createBareTestApp();
  // the heart-failure registry of a hospital's administrator (owner) with its CRF published, centers C01 and C02, the
  // HFpEF sub-project with its own form; data-entry members at C01 (entry) and C02 (entry2), a monitor and a viewer
  // of every center, and a clerk who may edit patients without seeing their identity (a custom role)
  const h = await hospital(t);
  ownerAccount = h.admin;
  const hf = await project(t, h.admin, { code: 'HF-REG', name: '心力衰竭注册登记研究' });
  hfId = hf.id;
  await publishCrf(t, h.admin.token, HF_REG_DEFINITION);
  const c02 = (await center(t, hf, { code: 'C02' })).id;
  const role = await t.api({
    method: 'POST',
    url: '/project-role',
    token: h.admin.token,
    payload: { code: 'clerk_nopii', name: '录入员无身份权限', permissions: ['patient.list', 'patient.edit'] },
  });
  expect(role.statusCode, role.body).toBe(200);
  entry = (await member(t, hf, 'data_entry', { centerId: hf.defaultCenterId })).token;
  entry2 = (await member(t, hf, 'data_entry', { centerId: c02 })).token;
  monitor = (await member(t, hf, 'monitor', { centerId: null })).token;
  viewer = (await member(t, hf, 'viewer', { centerId: null })).token;
  clerk = (await member(t, hf, 'clerk_nopii', { centerId: null })).token;
  subId = (await project(t, h.admin, { code: 'HF-REG-HFPEF', parentId: hf.id })).id;
  await publishCrf(t, h.admin.token, HFPEF_DEFINITION);
  const person = (name: string, id17: string, phone: string) => ({ name, idNumber: withCheck(id17), phone });
  P[3] = (
    await patient(t, h.admin.token, {
      ...person('欧阳明华', '31010419550902303', '13701010003'),
      centerId: hf.defaultCenterId,
    })
  ).id;
  await enterProject(t, h.admin.token, hfId);
  owner = h.admin.token;
  P[1] = (await patient(t, entry, person('王建国', '11010519580314201', '13801010001'))).id;
  P[2] = (await patient(t, entry, person('李秀英', '11010819620721102', '13901010002'))).id;
  P[4] = (await patient(t, entry, person('张桂兰', '11010219490130004', '13601010004'))).id;
  P[5] = (await patient(t, entry, person('陈志强', '11010619700415005', '15001010005'))).id;
  P[6] = (await patient(t, entry2, person('刘淑珍', '44010619600612106', '13802020006'))).id;
});
afterAll(async () => {
  await t?.close();
});

describe('POST form-record/save', () => {
  it('should create a draft with the calculated fields, its data points and no-store when the data is valid', async () => {
    const res = await save(entry, { patientId: P[1], formKey: 'vital_signs', rowVersion: 0, data: VITALS });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const record = res.json<Body<FormRecordVO>>().data;
    expect(record).toMatchObject({
      formKey: 'vital_signs',
      instance: 1,
      status: 'draft',
      rowVersion: 1,
      versionNo: 1,
      data: { ...VITALS, bmi: 25.1 },
      issues: [],
      updatedByName: expect.any(String),
    });
    expect(record.id).toEqual(expect.any(String));
    const bmi = record.points.find((p) => p.path === 'bmi');
    expect(bmi).toMatchObject({ versions: 1, lastSource: 'calc', sdv: null, openQueries: 0 });
    expect(record.points.find((p) => p.path === 'weight')).toMatchObject({ versions: 1, lastSource: 'manual' });
  });

  it('should answer 400 with the data paths of the hard issues and write nothing when the data is invalid', async () => {
    const before = await countRows(t, 'form_records');
    const bad = await save(entry, {
      patientId: P[2],
      formKey: 'vital_signs',
      rowVersion: 0,
      data: { ...VITALS, dbp: 140, heart_rate: 'fast' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['cache-control']).toBe('no-store');
    const body = bad.json<Body>();
    expect(body.issues).toEqual(
      expect.arrayContaining([
        { path: 'dbp', message: '舒张压应低于收缩压' },
        { path: 'heart_rate', message: '「心率」须为数字' },
      ]),
    );
    const group = await save(entry, {
      patientId: P[2],
      formKey: 'laboratory',
      rowVersion: 0,
      action: 'submit',
      data: { other_labs: [{ lab_item: '血钾', lab_result: '4.0' }, { lab_result: '138' }] },
    });
    expect(group.statusCode).toBe(400);
    expect(group.json<Body>().issues).toEqual([{ path: 'other_labs.1.lab_item', message: '请填写「项目」' }]);
    expect(await countRows(t, 'form_records')).toBe(before);
  });

  it('should store a draft without its required fields but refuse to submit it', async () => {
    const draft = await saved(entry, {
      patientId: P[2],
      formKey: 'demographics',
      rowVersion: 0,
      data: { name: '李秀英' },
    });
    expect(draft.status).toBe('draft');
    const submit = await save(entry, {
      patientId: P[2],
      formKey: 'demographics',
      rowVersion: draft.rowVersion,
      action: 'submit',
      data: { name: '李秀英' },
    });
    expect(submit.statusCode).toBe(400);
    expect(submit.json<Body>().issues).toEqual([
      { path: 'gender', message: '请填写「性别」' },
      { path: 'birth_date', message: '请填写「出生日期」' },
    ]);
    const done = await saved(entry, {
      patientId: P[2],
      formKey: 'demographics',
      rowVersion: draft.rowVersion,
      action: 'submit',
      data: { name: '李秀英', gender: '2', birth_date: '1962-07-21' },
    });
    expect(done).toMatchObject({ status: 'submitted', rowVersion: 2, submittedByName: expect.any(String) });
    const events = await auditOf(done.id ?? '');
    expect(events.map((e) => e.action)).toEqual(['form_record.create', 'form_record.submit']);
  });

  it('should refuse a dictionary code that is not in the dictionary', async () => {
    const res = await save(entry, {
      patientId: P[4],
      formKey: 'demographics',
      rowVersion: 0,
      data: { name: '张桂兰', gender: 'X9' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>().issues).toEqual([{ path: 'gender', message: '「性别」的选项 X9 不在字典中' }]);
  });

  it('should answer 404 for an unknown form, a patient of another center, a deleted or a missing patient', async () => {
    const unknown = await save(entry, { patientId: P[1], formKey: 'no_such_form', rowVersion: 0, data: {} });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<Body>().message).toBe('表单不存在');
    const otherCenter = await save(entry, { patientId: P[6], formKey: 'vital_signs', rowVersion: 0, data: VITALS });
    expect(otherCenter.statusCode).toBe(404);
    expect(otherCenter.json<Body>().message).toBe('患者不存在');
    const missing = await save(entry, { patientId: randomUUID(), formKey: 'vital_signs', rowVersion: 0, data: VITALS });
    expect(missing.json<Body>()).toMatchObject({ status: 404, message: '患者不存在' });
    const badId = await save(entry, { patientId: 'abc', formKey: 'vital_signs', rowVersion: 0, data: VITALS });
    expect(badId.statusCode).toBe(400);
    expect(badId.json<Body>().issues?.[0]?.path).toBe('patientId');
  });

  it('should answer 403 to a member without patient.edit', async () => {
    const res = await save(monitor, { patientId: P[1], formKey: 'vital_signs', rowVersion: 1, data: VITALS });
    expect(res.statusCode).toBe(403);
    expect(res.json<Body>().message).toBe('无权限执行此操作');
  });

  it('should answer 409 to a create of an existing record and to a stale row version', async () => {
    const again = await save(entry, { patientId: P[1], formKey: 'vital_signs', rowVersion: 0, data: VITALS });
    expect(again.statusCode).toBe(409);
    expect(again.json<Body>().message).toBe('该表单已被他人修改，请刷新后查看变更');
    const stale = await save(entry, { patientId: P[1], formKey: 'vital_signs', rowVersion: 7, data: VITALS });
    expect(stale.json<Body>()).toMatchObject({ status: 409, message: '该表单已被他人修改，请刷新后查看变更' });
  });

  it('should let exactly one of 100 parallel saves of one row version win and keep its data', async () => {
    const base = await saved(entry, { patientId: P[5], formKey: 'vital_signs', rowVersion: 0, data: VITALS });
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        save(entry, {
          patientId: P[5],
          formKey: 'vital_signs',
          rowVersion: base.rowVersion,
          data: { ...VITALS, heart_rate: 100 + i },
        }),
      ),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(99);
    const winner = answers.find((a) => a.statusCode === 200)?.json<Body<FormRecordVO>>().data;
    const [stored] = await t.db
      .select()
      .from(formRecords)
      .where(eq(formRecords.id, base.id ?? ''));
    expect(stored?.rowVersion).toBe(2);
    expect((stored?.data as { heart_rate: number }).heart_rate).toBe(winner?.data.heart_rate);
    expect(await auditOf(base.id ?? '')).toHaveLength(2);
  });

  it('should let exactly one of 20 parallel creates of the same form instance win', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        save(entry, {
          patientId: P[4],
          formKey: 'vital_signs',
          rowVersion: 0,
          instance: 1,
          data: { ...VITALS, heart_rate: 60 + i },
        }),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(19);
    const rows = await t.db
      .select()
      .from(formRecords)
      .where(and(eq(formRecords.patientId, P[4] ?? ''), eq(formRecords.formKey, 'vital_signs')));
    expect(rows).toHaveLength(1);
  });

  it('should number new instances of a repeating form and refuse a second instance of a non-repeating one', async () => {
    const visit = { fu_date: '2026-03-01', vital_status: '1', fu_nyha: '2' };
    const first = await saved(entry, { patientId: P[2], formKey: 'followup_visit', rowVersion: 0, data: visit });
    const second = await saved(entry, { patientId: P[2], formKey: 'followup_visit', rowVersion: 0, data: visit });
    expect([first.instance, second.instance]).toEqual([1, 2]);
    const res = await save(entry, {
      patientId: P[2],
      formKey: 'vital_signs',
      rowVersion: 0,
      instance: 2,
      data: VITALS,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>().issues).toEqual([{ path: 'instance', message: '该表单不是重复表单，只有一个实例' }]);
  });

  it('should require a reason to change a submitted record, keep it in the history and audit old and new values', async () => {
    const submitted = await saved(entry, {
      patientId: P[1],
      formKey: 'echocardiography',
      rowVersion: 0,
      action: 'submit',
      data: { echo_date: '2026-02-02', lvef: 38, lvedd: 62, nyha: '3' },
    });
    const change = { echo_date: '2026-02-02', lvef: 40, lvedd: 62, nyha: '3' };
    const noReason = await save(entry, { patientId: P[1], formKey: 'echocardiography', rowVersion: 1, data: change });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json<Body>()).toMatchObject({
      message: '请填写修改原因',
      issues: [{ path: 'reason', message: '请填写修改原因' }],
    });
    const blank = await save(entry, {
      patientId: P[1],
      formKey: 'echocardiography',
      rowVersion: 1,
      data: change,
      reason: '  ',
    });
    expect(blank.statusCode).toBe(400);
    const changed = await saved(entry, {
      patientId: P[1],
      formKey: 'echocardiography',
      rowVersion: 1,
      data: change,
      reason: '超声报告复核',
    });
    expect(changed).toMatchObject({ status: 'submitted', rowVersion: 2 });
    // the same data again: nothing to change, no reason needed, nothing written
    const same = await saved(entry, { patientId: P[1], formKey: 'echocardiography', rowVersion: 2, data: change });
    expect(same.rowVersion).toBe(2);
    const events = await auditOf(submitted.id ?? '');
    expect(events).toHaveLength(2);
    expect(events[1]).toMatchObject({
      action: 'form_record.update',
      reason: '超声报告复核',
      oldValue: { rowVersion: 1, values: { lvef: 38 } },
      newValue: { rowVersion: 2, values: { lvef: 40 } },
    });
    // the project's 操作日志 lists it, the form and the field named by their titles instead of their keys
    const trail = await call(monitor, 'POST', '/audit-event/page', { current: 1, size: 50, entityId: submitted.id });
    expect(trail.statusCode, trail.body).toBe(200);
    const shown = trail.json<Body<AuditPageResponse>>().data.records.find((r) => r.action === 'form_record.update');
    expect(shown?.fieldLabels).toEqual({ lvef: '左室射血分数（LVEF）' });
    expect(shown?.valueNames).toMatchObject({ echocardiography: '超声心动图' });
    const lvef = await history(entry, submitted.id ?? '', '&path=lvef');
    expect(lvef.versions.map((v) => [v.value, v.reason, v.recordRowVersion])).toEqual([
      [40, '超声报告复核', 2],
      [38, null, 1],
    ]);
  });

  it('should answer 409 to a save of a record of a locked or archived project', async () => {
    const record = await saved(entry, {
      patientId: P[4],
      formKey: 'medical_history',
      rowVersion: 0,
      data: { smoking: '0' },
    });
    for (const status of ['locked', 'archived'] as const) {
      await t.db.update(projects).set({ status }).where(eq(projects.id, hfId));
      const res = await save(entry, {
        patientId: P[4],
        formKey: 'medical_history',
        rowVersion: record.rowVersion,
        data: { smoking: '1' },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json<Body>().message).toBe('项目已锁定或归档，数据不能修改');
    }
    await t.db.update(projects).set({ status: 'active' }).where(eq(projects.id, hfId));
  });

  it('should enter the sub-project form only for a patient of its cohort and record it under the sub-project', async () => {
    const data = { e_e_ratio: 16.2, lavi: 38, h2fpef_score: 6 };
    const own = await saved(entry, { patientId: P[3], formKey: 'hfpef_assessment', rowVersion: 0, data });
    expect(own.data).toMatchObject({ hfpef_likely: 1 });
    const [row] = await t.db
      .select()
      .from(formRecords)
      .where(eq(formRecords.id, own.id ?? ''));
    expect(row?.projectId).toBe(subId);
    const parentForm = await saved(entry, { patientId: P[3], formKey: 'vital_signs', rowVersion: 0, data: VITALS });
    expect(parentForm.status).toBe('draft');
    const notInCohort = await save(entry, { patientId: P[1], formKey: 'hfpef_assessment', rowVersion: 0, data });
    expect(notInCohort.json<Body>()).toMatchObject({ status: 404, message: '表单不存在' });
  });
});

describe('bad input of every call', () => {
  it('should answer 400 naming the field when a request breaks its contract', async () => {
    const cases: [string, 'GET' | 'POST' | 'DELETE', string, unknown, string][] = [
      [entry, 'GET', `/form-record/detail?patientId=${P[1]}&formKey=vital_signs&instance=0`, undefined, 'instance'],
      [entry, 'GET', `/form-record/detail?patientId=${P[1]}`, undefined, 'formKey'],
      [entry, 'POST', '/form-record/save', { patientId: P[1], formKey: 'vital_signs', data: {} }, 'rowVersion'],
      [
        entry,
        'POST',
        '/form-record/save',
        { patientId: P[1], formKey: 'vital_signs', rowVersion: 0, data: {}, action: 'sign' },
        'action',
      ],
      [owner, 'POST', '/form-record/status', { id: randomUUID(), rowVersion: 1, action: 'freeze' }, 'action'],
      [owner, 'POST', '/form-record/status', { id: randomUUID(), rowVersion: 0, action: 'lock' }, 'rowVersion'],
      [entry, 'DELETE', `/form-record?id=nope`, { reason: 'x' }, 'id'],
      [entry, 'GET', `/form-record/history?recordId=${randomUUID()}&path=`, undefined, 'path'],
      [monitor, 'POST', '/form-record/sdv', { recordId: randomUUID(), paths: [] }, 'paths'],
      [monitor, 'POST', '/form-record/query', { recordId: randomUUID(), path: 'lvef', message: '' }, 'message'],
      [entry, 'POST', '/form-record/query/answer', { id: randomUUID(), answer: 'x'.repeat(1001) }, 'answer'],
      [monitor, 'POST', '/form-record/query/close', { id: 'x' }, 'id'],
    ];
    for (const [token, method, url, payload, path] of cases) {
      const res = await call(token, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(400);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(
        res.json<Body>().issues?.map((i) => i.path),
        `${method} ${url}`,
      ).toContain(path);
    }
  });
});

describe('PHI of the forms', () => {
  it('should withhold phi values from a member without patient.pii and keep them on its save', async () => {
    const record = await saved(entry, {
      patientId: P[5],
      formKey: 'demographics',
      rowVersion: 0,
      data: { name: '陈志强', gender: '1', birth_date: '1970-04-15', phone: '15001010005', ethnicity: '01' },
    });
    const shown = (await detail(viewer, P[5] ?? '', 'demographics')).json<Body<FormRecordVO>>().data;
    // name, birth date and phone are bound to the patient record: masked as the patient list masks them
    expect(shown.data).toMatchObject({
      name: '陈**',
      birth_date: '1970-**-**',
      phone: '150****0005',
      gender: '1',
      ethnicity: '01',
    });
    expect(shown.maskedPaths.sort()).toEqual(['birth_date', 'name', 'phone']);
    expect(JSON.stringify(shown)).not.toContain('陈志强');
    const sinceHistory = await history(viewer, record.id ?? '');
    const name = sinceHistory.versions.find((v) => v.path === 'name');
    expect(name).toMatchObject({ value: null, masked: true });
    expect(sinceHistory.versions.find((v) => v.path === 'gender')).toMatchObject({ value: '1', masked: false });
    // the clerk (edit, no pii) sends back what it saw: the withheld values stay
    const seen = (await detail(clerk, P[5] ?? '', 'demographics')).json<Body<FormRecordVO>>().data;
    const after = await saved(clerk, {
      patientId: P[5],
      formKey: 'demographics',
      rowVersion: seen.rowVersion,
      data: { ...seen.data, ethnicity: '02' },
    });
    expect(after.data.name).toBe('陈**');
    const [row] = await t.db
      .select()
      .from(formRecords)
      .where(eq(formRecords.id, record.id ?? ''));
    expect(row?.data).toMatchObject({
      name: '陈志强',
      birth_date: '1970-04-15',
      phone: '15001010005',
      ethnicity: '02',
    });
  });

  it('should show phi values to a patient.pii holder and audit the read', async () => {
    const res = (await detail(entry, P[5] ?? '', 'demographics')).json<Body<FormRecordVO>>().data;
    expect(res.data).toMatchObject({ name: '陈志强' });
    expect(res.maskedPaths).toEqual([]);
    const reads = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'form_record.pii_read'), eq(auditEvents.entityId, res.id ?? '')));
    expect(reads.length).toBeGreaterThanOrEqual(1);
  });
});

describe('GET form-record/detail and form-record/patient/{patientId}', () => {
  it('should answer a blank record on the current version when nothing was saved yet', async () => {
    const res = await detail(entry, P[1] ?? '', 'medications');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json<Body<FormRecordVO>>().data).toMatchObject({
      id: null,
      rowVersion: 0,
      status: 'draft',
      versionNo: 1,
      data: {},
    });
    const unknown = await detail(entry, P[1] ?? '', 'nope');
    expect(unknown.json<Body>()).toMatchObject({ status: 404, message: '表单不存在' });
    const foreign = await detail(entry, P[6] ?? '', 'vital_signs');
    expect(foreign.json<Body>()).toMatchObject({ status: 404, message: '患者不存在' });
  });

  it('should summarise every record of the patient with the engine’s completeness', async () => {
    await saved(entry, { patientId: P[1], formKey: 'demographics', rowVersion: 0, data: { name: '王建国' } });
    const list = await summaries(entry, P[1] ?? '');
    const vitals = list.find((r) => r.formKey === 'vital_signs');
    expect(vitals).toMatchObject({
      filled: 6,
      total: 6,
      missingRequired: 0,
      softIssues: 0,
      openQueries: 0,
      status: 'draft',
      createdAt: expect.any(String),
      submittedAt: null,
      verifiedAt: null,
      lockedAt: null,
    });
    const demo = list.find((r) => r.formKey === 'demographics');
    expect(demo).toMatchObject({ filled: 1, total: 8, missingRequired: 2 });
    const foreign = await call(entry, 'GET', `/form-record/patient/${P[6]}`);
    expect(foreign.json<Body>()).toMatchObject({ status: 404, message: '患者不存在' });
    const notUuid = await call(entry, 'GET', '/form-record/patient/xyz');
    expect(notUuid.json<Body>()).toMatchObject({ status: 404, message: '患者不存在' });
  });

  it('should answer 404 for the records of a deleted patient', async () => {
    const record = await saved(entry, {
      patientId: P[2],
      formKey: 'medical_history',
      rowVersion: 0,
      data: { smoking: '0' },
    });
    const [other] = await t.db
      .select()
      .from(patients)
      .where(eq(patients.id, P[2] ?? ''));
    expect(other).toBeDefined();
    await t.db
      .update(patients)
      .set({ deletedAt: new Date(), deleteReason: '重复录入' })
      .where(eq(patients.id, P[2] ?? ''));
    try {
      expect((await detail(entry, P[2] ?? '', 'medical_history')).statusCode).toBe(404);
      expect((await call(entry, 'GET', `/form-record/patient/${P[2]}`)).statusCode).toBe(404);
      expect((await call(entry, 'GET', `/form-record/history?recordId=${record.id}`)).json<Body>()).toMatchObject({
        status: 404,
        message: '表单记录不存在',
      });
    } finally {
      await t.db
        .update(patients)
        .set({ deletedAt: null, deleteReason: null })
        .where(eq(patients.id, P[2] ?? ''));
    }
  });

  it('should pass the patient’s other forms to the engine for cross-form references', async () => {
    // a small project whose second form computes from the first
    const definition: Definition = {
      missingCodes: [],
      categories: [
        {
          key: 'c',
          title: '分类',
          forms: [
            { key: 'body', title: '体格', fields: [{ key: 'wt', label: '体重', type: 'decimal' }] },
            {
              key: 'dose',
              title: '剂量',
              fields: [
                { key: 'mg_per_kg', label: '每公斤剂量', type: 'decimal' },
                { key: 'total_mg', label: '总剂量', type: 'calc', formula: '[mg_per_kg] * [wt]' },
                { key: 'heavy_note', label: '体重大于100说明', type: 'text', showIf: '[wt] > 100' },
              ],
            },
          ],
        },
      ],
    };
    // the owner's own session, so the other tests' session stays in the registry
    const token = await t.login(ownerAccount.username, ownerAccount.password);
    const xform = await project(t, { ...ownerAccount, token }, { code: 'XFORM', name: '跨表单测试' });
    await publishCrf(t, token, definition);
    const created = await patient(t, token, { name: '跨表单', centerId: xform.defaultCenterId });
    await saved(token, { patientId: created.id, formKey: 'body', rowVersion: 0, data: { wt: 120 } });
    const dose = await saved(token, {
      patientId: created.id,
      formKey: 'dose',
      rowVersion: 0,
      data: { mg_per_kg: 2, heavy_note: '肥胖' },
    });
    expect(dose.data).toEqual({ mg_per_kg: 2, total_mg: 240, heavy_note: '肥胖' });

    // The form read by the calculation changes: the dependent record is computed again in the same save, audited,
    // its new value's source 'calc'; what the user entered there stays.
    const body = (await detail(token, created.id, 'body')).json<Body<FormRecordVO>>().data;
    await saved(token, { patientId: created.id, formKey: 'body', rowVersion: body.rowVersion, data: { wt: 130 } });
    const fresh = (await detail(token, created.id, 'dose')).json<Body<FormRecordVO>>().data;
    expect(fresh.data).toEqual({ mg_per_kg: 2, total_mg: 260, heavy_note: '肥胖' });
    expect(fresh.rowVersion).toBe(dose.rowVersion + 1);
    expect(fresh.points.find((p) => p.path === 'total_mg')).toMatchObject({ versions: 2, lastSource: 'calc' });
    const events = await auditOf(dose.id ?? '');
    expect(events.at(-1)).toMatchObject({
      action: 'form_record.recalculate',
      reason: '引用的表单「体格」已修改，计算字段自动重算',
    });
    expect(events.at(-1)?.newValue).toMatchObject({ values: { total_mg: 260 } });
    expect(events.at(-1)?.oldValue).toMatchObject({ values: { total_mg: 240 } });
  });
});

describe('POST form-record/status', () => {
  let record: FormRecordVO;
  beforeAll(async () => {
    record = await saved(entry, {
      patientId: P[1],
      formKey: 'medical_history',
      rowVersion: 0,
      action: 'submit',
      data: {
        smoking: '1',
        smoking_packs: 1,
        smoking_years: 30,
        comorbidities: ['htn', 'af'],
        primary_diagnosis: 'I00-I99',
      },
    });
  });
  const status = (token: string, payload: Record<string, unknown>) =>
    call(token, 'POST', '/form-record/status', { id: record.id, ...payload });

  it('should refuse each action to a member without its permission, with the access hook’s 403', async () => {
    for (const [token, action] of [
      [entry, 'verify'],
      [monitor, 'lock'],
      [viewer, 'unlock'],
    ] as const) {
      const res = await status(token, { rowVersion: record.rowVersion, action, reason: '测试' });
      expect(res.statusCode).toBe(403);
      expect(res.json<Body>().message).toBe('无权限执行此操作');
    }
  });

  it('should verify a submitted record, lock it, and unlock it with a reason back to verified', async () => {
    const draft = await saved(entry, {
      patientId: P[4],
      formKey: 'laboratory',
      rowVersion: 0,
      data: { creatinine: 98 },
    });
    const notSubmitted = await call(monitor, 'POST', '/form-record/status', {
      id: draft.id,
      rowVersion: draft.rowVersion,
      action: 'verify',
    });
    expect(notSubmitted.json<Body>()).toMatchObject({ status: 409, message: '只有已提交的表单可以核查' });

    const verified = (await status(monitor, { rowVersion: 1, action: 'verify' })).json<Body<FormRecordVO>>().data;
    expect(verified).toMatchObject({ status: 'verified', rowVersion: 2, verifiedByName: expect.any(String) });
    const stale = await status(owner, { rowVersion: 1, action: 'lock' });
    expect(stale.json<Body>()).toMatchObject({ status: 409, message: '该表单已被他人修改，请刷新后查看变更' });
    const locked = (await status(owner, { rowVersion: 2, action: 'lock' })).json<Body<FormRecordVO>>().data;
    expect(locked).toMatchObject({ status: 'locked', rowVersion: 3, lockedByName: expect.any(String) });

    const edit = await save(entry, {
      patientId: P[1],
      formKey: 'medical_history',
      rowVersion: 3,
      data: { smoking: '0', primary_diagnosis: 'I00-I99' },
      reason: '更正',
    });
    expect(edit.json<Body>()).toMatchObject({ status: 409, message: '表单已锁定，不能修改' });

    const noReason = await status(owner, { rowVersion: 3, action: 'unlock' });
    expect(noReason.json<Body>()).toMatchObject({
      status: 400,
      issues: [{ path: 'reason', message: '请填写解锁原因' }],
    });
    const unlocked = (await status(owner, { rowVersion: 3, action: 'unlock', reason: '监查发现需更正' })).json<
      Body<FormRecordVO>
    >().data;
    expect(unlocked).toMatchObject({ status: 'verified', rowVersion: 4, lockedAt: null });
    const events = await auditOf(record.id ?? '');
    expect(events.map((e) => e.action)).toEqual([
      'form_record.create',
      'form_record.verify',
      'form_record.lock',
      'form_record.unlock',
    ]);
    expect(events[3]).toMatchObject({
      reason: '监查发现需更正',
      oldValue: { status: 'locked' },
      newValue: { status: 'verified' },
    });
  });

  it('should return a verified record to submitted when its data changes', async () => {
    const changed = await saved(entry, {
      patientId: P[1],
      formKey: 'medical_history',
      rowVersion: 4,
      data: {
        smoking: '0',
        smoking_packs: 1,
        smoking_years: 30,
        comorbidities: ['htn', 'af'],
        primary_diagnosis: 'I00-I99',
      },
      reason: '患者已戒烟，更正吸烟史',
    });
    expect(changed).toMatchObject({ status: 'submitted', rowVersion: 5, verifiedAt: null, verifiedByName: null });
    // the fields the new answer hides are cleared by the server: versioned as calc
    const packs = await history(entry, record.id ?? '', '&path=smoking_packs');
    expect(packs.versions[0]).toMatchObject({ value: null, source: 'calc', reason: '患者已戒烟，更正吸烟史' });
  });

  it('should answer 404 for a record of another center', async () => {
    const res = await call(entry2, 'POST', '/form-record/status', { id: record.id, rowVersion: 5, action: 'verify' });
    expect(res.statusCode).toBe(403);
    const lock = await t.login(ownerAccount.username, ownerAccount.password);
    await enterProject(t, lock, hfId);
    const missing = await call(lock, 'POST', '/form-record/status', {
      id: randomUUID(),
      rowVersion: 1,
      action: 'lock',
    });
    expect(missing.json<Body>()).toMatchObject({ status: 404, message: '表单记录不存在' });
  });
});

describe('DELETE form-record', () => {
  it('should remove an instance of a repeating form with a reason and leave it out of the summaries', async () => {
    const visit = { fu_date: '2026-03-05', vital_status: '1' };
    const one = await saved(entry, { patientId: P[5], formKey: 'followup_visit', rowVersion: 0, data: visit });
    const two = await saved(entry, { patientId: P[5], formKey: 'followup_visit', rowVersion: 0, data: visit });
    const noReason = await call(entry, 'DELETE', `/form-record?id=${two.id}`);
    expect(noReason.json<Body>()).toMatchObject({
      status: 400,
      issues: [{ path: 'reason', message: '请填写删除原因' }],
    });
    const res = await call(entry, 'DELETE', `/form-record?id=${two.id}`, { reason: '重复录入' });
    expect(res.json<Body>()).toMatchObject({ status: 200, data: { deleted: 1 } });
    const list = await summaries(entry, P[5] ?? '');
    expect(list.filter((r) => r.formKey === 'followup_visit').map((r) => r.instance)).toEqual([one.instance]);
    const [event] = (await auditOf(two.id ?? '')).filter((e) => e.action === 'form_record.delete');
    expect(event).toMatchObject({
      reason: '重复录入',
      oldValue: { values: { fu_date: '2026-03-05' } },
      newValue: { deleted: true },
    });
    // the number is not reused
    const three = await saved(entry, { patientId: P[5], formKey: 'followup_visit', rowVersion: 0, data: visit });
    expect(three.instance).toBe(3);
    const again = await call(entry, 'DELETE', `/form-record?id=${two.id}`, { reason: 'x' });
    expect(again.json<Body>()).toMatchObject({ status: 404, message: '表单记录不存在' });
  });

  it('should refuse to remove a non-repeating form, and answer 403 without patient.edit and 404 across centers', async () => {
    const [vitals] = await t.db
      .select()
      .from(formRecords)
      .where(and(eq(formRecords.patientId, P[1] ?? ''), eq(formRecords.formKey, 'vital_signs')));
    const res = await call(entry, 'DELETE', `/form-record?id=${vitals?.id}`, { reason: 'x' });
    expect(res.json<Body>()).toMatchObject({ status: 400, message: '只能删除重复表单的实例' });
    expect((await call(monitor, 'DELETE', `/form-record?id=${vitals?.id}`, { reason: 'x' })).statusCode).toBe(403);
    expect((await call(entry2, 'DELETE', `/form-record?id=${vitals?.id}`, { reason: 'x' })).json<Body>()).toMatchObject(
      {
        status: 404,
        message: '表单记录不存在',
      },
    );
  });
});

describe('SDV, history and queries', () => {
  let echo: FormRecordVO;
  beforeAll(async () => {
    echo = await saved(entry, {
      patientId: P[4],
      formKey: 'echocardiography',
      rowVersion: 0,
      data: { echo_date: '2026-02-21', lvef: 85, nyha: '2' },
    });
  });

  it('should open an auto query for a soft issue, count it, and close it when the value is fixed', async () => {
    expect(echo.issues).toEqual([expect.objectContaining({ path: 'lvef', level: 'soft' })]);
    expect(echo.queries).toEqual([expect.objectContaining({ path: 'lvef', origin: 'auto', status: 'open' })]);
    expect(echo.points.find((p) => p.path === 'lvef')?.openQueries).toBe(1);
    const list = await summaries(entry, P[4] ?? '');
    expect(list.find((r) => r.formKey === 'echocardiography')).toMatchObject({ softIssues: 1, openQueries: 1 });
    echo = await saved(entry, {
      patientId: P[4],
      formKey: 'echocardiography',
      rowVersion: echo.rowVersion,
      data: { echo_date: '2026-02-21', lvef: 58, nyha: '2' },
    });
    expect(echo.issues).toEqual([]);
    expect(echo.queries).toEqual([
      expect.objectContaining({
        status: 'closed',
        closeNote: '数据已修正，质疑自动关闭',
        closedByName: expect.any(String),
      }),
    ]);
  });

  it('should mark the latest versions verified, and drop the verification when the value changes', async () => {
    const res = await call(monitor, 'POST', '/form-record/sdv', { recordId: echo.id, paths: ['lvef', 'echo_date'] });
    expect(res.json<Body>()).toMatchObject({ status: 200, data: { verified: 2 } });
    const again = await call(monitor, 'POST', '/form-record/sdv', { recordId: echo.id, paths: ['lvef'] });
    expect(again.json<Body>().data).toEqual({ verified: 0 });
    const marked = (await detail(entry, P[4] ?? '', 'echocardiography')).json<Body<FormRecordVO>>().data;
    expect(marked.points.find((p) => p.path === 'lvef')?.sdv).toBe('verified');
    const changed = await saved(entry, {
      patientId: P[4],
      formKey: 'echocardiography',
      rowVersion: marked.rowVersion,
      data: { echo_date: '2026-02-21', lvef: 56, nyha: '2' },
    });
    expect(changed.points.find((p) => p.path === 'lvef')?.sdv).toBe('stale');
    expect(changed.points.find((p) => p.path === 'echo_date')?.sdv).toBe('verified');
    const lvef = await history(monitor, echo.id ?? '', '&path=lvef');
    expect(lvef.versions.map((v) => [v.value, v.sdv !== null])).toEqual([
      [56, false],
      [58, true],
      [85, false],
    ]);
    expect(lvef.versions[1]?.sdv?.verifiedByName).toEqual(expect.any(String));
    expect(lvef.versions.every((v) => v.actorName !== null && v.source === 'manual')).toBe(true);
    expect(lvef.queries).toHaveLength(1);
  });

  it('should refuse SDV of a path without a value version, and to a member without patient.sdv', async () => {
    const res = await call(monitor, 'POST', '/form-record/sdv', { recordId: echo.id, paths: ['lvef', 'lvedd'] });
    expect(res.json<Body>()).toMatchObject({
      status: 400,
      issues: [{ path: 'paths.1', message: '数据项 lvedd 没有可核查的值' }],
    });
    expect((await call(entry, 'POST', '/form-record/sdv', { recordId: echo.id, paths: ['lvef'] })).statusCode).toBe(
      403,
    );
    const missing = await call(monitor, 'POST', '/form-record/sdv', { recordId: randomUUID(), paths: ['lvef'] });
    expect(missing.json<Body>()).toMatchObject({ status: 404, message: '表单记录不存在' });
  });

  it('should list only what changed since a row version', async () => {
    const since = await history(entry, echo.id ?? '', `&sinceRowVersion=${echo.rowVersion}`);
    expect(since.versions.map((v) => [v.path, v.value])).toEqual([['lvef', 56]]);
    const all = await history(entry, echo.id ?? '');
    expect(all.versions.map((v) => v.recordRowVersion)).toEqual(
      [...all.versions.map((v) => v.recordRowVersion)].sort((a, b) => b - a),
    );
    const bad = await call(entry, 'GET', `/form-record/history?recordId=${echo.id}&sinceRowVersion=-1`);
    expect(bad.statusCode).toBe(400);
  });

  it('should let a monitor raise a query, the site answer it and the monitor close it', async () => {
    const raised = await call(monitor, 'POST', '/form-record/query', {
      recordId: echo.id,
      path: 'nyha',
      message: '请核对NYHA分级与病历是否一致',
    });
    expect(raised.statusCode, raised.body).toBe(200);
    const query = raised.json<Body<DataQueryVO>>().data;
    expect(query).toMatchObject({ origin: 'manual', status: 'open', path: 'nyha', raisedByName: expect.any(String) });
    expect(
      (await call(entry, 'POST', '/form-record/query', { recordId: echo.id, path: 'nyha', message: 'x' })).statusCode,
    ).toBe(403);
    const badPath = await call(monitor, 'POST', '/form-record/query', {
      recordId: echo.id,
      path: 'nope',
      message: 'x',
    });
    expect(badPath.json<Body>()).toMatchObject({ status: 400, issues: [{ path: 'path', message: '数据项不存在' }] });
    const empty = await call(monitor, 'POST', '/form-record/query', { recordId: echo.id, path: 'nyha', message: ' ' });
    expect(empty.json<Body>()).toMatchObject({ status: 400, message: expect.stringContaining('请填写质疑内容') });

    const answered = await call(entry, 'POST', '/form-record/query/answer', {
      id: query.id,
      answer: '已核对，病历记载为II级',
    });
    expect(answered.json<Body<DataQueryVO>>().data).toMatchObject({
      status: 'answered',
      answer: '已核对，病历记载为II级',
    });
    expect((await call(monitor, 'POST', '/form-record/query/answer', { id: query.id, answer: 'x' })).statusCode).toBe(
      403,
    );
    const closed = await call(monitor, 'POST', '/form-record/query/close', { id: query.id, note: '确认无误' });
    expect(closed.json<Body<DataQueryVO>>().data).toMatchObject({ status: 'closed', closeNote: '确认无误' });
    const twice = await call(monitor, 'POST', '/form-record/query/close', { id: query.id });
    expect(twice.json<Body>()).toMatchObject({ status: 409, message: '质疑已关闭' });
    const missing = await call(entry, 'POST', '/form-record/query/answer', { id: randomUUID(), answer: 'x' });
    expect(missing.json<Body>()).toMatchObject({ status: 404, message: '质疑不存在' });
    const foreign = await call(entry2, 'POST', '/form-record/query/answer', { id: query.id, answer: 'x' });
    expect(foreign.json<Body>()).toMatchObject({ status: 404, message: '质疑不存在' });
    const actions = (
      await t.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.entityType, 'data_query'), eq(auditEvents.entityId, query.id)))
        .orderBy(auditEvents.id)
    ).map((e) => e.action);
    expect(actions).toEqual(['data_query.create', 'data_query.answer', 'data_query.close']);
    const rows = await t.db.select().from(dataQueries).where(eq(dataQueries.id, query.id));
    expect(rows[0]?.status).toBe('closed');
  });
});
