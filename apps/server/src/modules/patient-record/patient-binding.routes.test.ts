import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FormRecordVO, ValueVersionVO } from '@registry/shared/contracts/form-record';
import type { PatientVO } from '@registry/shared/contracts/patient';
import { DEFAULT_MISSING_CODES, type Definition } from '@registry/shared/forms/definition';
import { auditEvents, formRecords } from '../../db/schema';
import { withCheck } from '../../db/demo-patients';
import { hospital, member, patient as addPatient, project, publishCrf } from '../../../test/factories';
import { createBareTestApp, type TestApp } from '../../../test/test-app';

/**
 * "demographics are typed twice": the 人口学资料 fields bound to the patient record (name, sex, birth date,
 * identity number, phone) show the patient's values, change the patient when saved, follow the patient when it is
 * edited, and are masked and read-only without `patient.pii`.
 */

type Body<T = unknown> = { status: number; message: string; data: T; issues?: { path: string; message: string }[] };

/** The 人口学资料 form of a heart-failure registry: five fields bound to the patient, two of its own. */
const DEFINITION: Definition = {
  missingCodes: DEFAULT_MISSING_CODES,
  categories: [
    {
      key: 'baseline',
      title: '基线资料',
      forms: [
        {
          key: 'demographics',
          title: '人口学资料',
          fields: [
            { key: 'name', label: '姓名', type: 'text', required: true, phi: true, binding: 'patient.name' },
            {
              key: 'gender',
              label: '性别',
              type: 'dict',
              dictCode: 'gender',
              required: true,
              binding: 'patient.gender',
            },
            {
              key: 'birth_date',
              label: '出生日期',
              type: 'date',
              required: true,
              phi: true,
              maxDate: 'today',
              binding: 'patient.birthDate',
            },
            {
              key: 'age',
              label: '年龄',
              type: 'calc',
              unit: '岁',
              formula: "rounddown(datediff([birth_date], 'today', 'y'), 0)",
            },
            { key: 'ethnicity', label: '民族', type: 'dict', dictCode: 'ethnicity' },
            { key: 'phone', label: '联系电话', type: 'text', phi: true, binding: 'patient.phone' },
            { key: 'id_number', label: '身份证号', type: 'text', phi: true, binding: 'patient.idNumber' },
          ],
        },
      ],
    },
  ],
};

let t: TestApp;
let owner: string;
let entry: string;
let clerk: string;
const P: Record<string, string> = {};
/** 张桂兰: no 人口学资料 record yet. */
const ID4 = '110102194901300046';
/** 陈志强, born 1970-04-15, male: his identity number is taken. */
const ID5 = withCheck('11010619700415005');

const call = (token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
  t.api({ method, url, token, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
const save = (token: string, payload: Record<string, unknown>) => call(token, 'POST', '/form-record/save', payload);
const detail = async (token: string, patientId: string) =>
  (await call(token, 'GET', `/form-record/detail?patientId=${patientId}&formKey=demographics&instance=1`)).json<
    Body<FormRecordVO>
  >().data;
const patient = async (id: string) => (await call(owner, 'GET', `/patient-info/${id}`)).json<Body<PatientVO>>().data;
const storedData = async (recordId: string) =>
  (await t.db.select().from(formRecords).where(eq(formRecords.id, recordId)))[0]?.data as Record<string, unknown>;
const auditsOf = (entityType: string, entityId: string, action: string) =>
  t.db
    .select()
    .from(auditEvents)
    .where(
      and(eq(auditEvents.entityType, entityType), eq(auditEvents.entityId, entityId), eq(auditEvents.action, action)),
    )
    .orderBy(asc(auditEvents.id));

beforeAll(async () => {
  t = await createBareTestApp();
  // a project of a hospital's administrator (owner) with the form above published, a data-entry member (entry) and a
  // member of a custom role that may list and edit patients but not see their identity (clerk)
  const h = await hospital(t);
  const p = await project(t, h.admin);
  owner = h.admin.token;
  await publishCrf(t, owner, DEFINITION);
  const role = await call(owner, 'POST', '/project-role', {
    code: 'clerk_nopii',
    name: '录入员无身份权限',
    permissions: ['patient.list', 'patient.edit'],
  });
  expect(role.statusCode, role.body).toBe(200);
  entry = (await member(t, p, 'data_entry')).token;
  clerk = (await member(t, p, 'clerk_nopii', { centerId: null })).token;
  P[4] = (await addPatient(t, entry, { name: '张桂兰', idNumber: ID4, phone: '13601010004' })).id;
  P[5] = (await addPatient(t, entry, { name: '陈志强', idNumber: ID5, phone: '15001010005' })).id;
});
afterAll(async () => {
  await t?.close();
});

describe('reading bound fields', () => {
  it('should fill a blank 人口学资料 with the patient record’s values instead of asking again', async () => {
    const blank = await detail(entry, P[4] ?? '');
    expect(blank.id).toBeNull();
    expect(blank.data).toEqual({
      name: '张桂兰',
      gender: '2',
      birth_date: '1949-01-30',
      id_number: ID4,
      phone: '13601010004',
    });
  });
});

describe('saving bound fields', () => {
  it('should change the patient with the record, both audited, when a bound field changes', async () => {
    const res = await save(entry, {
      patientId: P[4],
      formKey: 'demographics',
      rowVersion: 0,
      data: { ...(await detail(entry, P[4] ?? '')).data, name: '张桂芝', phone: '139 1111 2222', ethnicity: '01' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const record = res.json<Body<FormRecordVO>>().data;
    expect(record.data).toMatchObject({ name: '张桂芝', phone: '13911112222', ethnicity: '01' });
    expect(await patient(P[4] ?? '')).toMatchObject({ name: '张桂芝', phone: '13911112222' });
    const [update] = await auditsOf('patient', P[4] ?? '', 'patient.update');
    expect(update?.oldValue).toMatchObject({ name: '张**', phone: '136****0004' });
    expect(update?.newValue).toMatchObject({ name: '张**', phone: '139****2222' });
    const [created] = await auditsOf('form_record', record.id ?? '', 'form_record.create');
    expect(created?.requestId).toBe(update?.requestId);
    expect(await storedData(record.id ?? '')).toMatchObject({ name: '张桂芝', phone: '13911112222' });
  });

  it('should check bound values as 新增患者 does and change nothing when they fail', async () => {
    const before = await detail(entry, P[4] ?? '');
    const attempt = (data: Record<string, unknown>) =>
      save(entry, { patientId: P[4], formKey: 'demographics', rowVersion: before.rowVersion, data });
    const badId = await attempt({ ...before.data, id_number: '110102194901300048' });
    expect(badId.statusCode).toBe(400);
    expect(badId.json<Body>().issues).toEqual([
      { path: 'id_number', message: '「身份证号」：身份证号格式不正确或校验位错误' },
    ]);
    const badPhone = await attempt({ ...before.data, phone: '12345' });
    expect(badPhone.json<Body>().issues).toEqual([
      { path: 'phone', message: '「联系电话」：手机号应为11位中国大陆手机号' },
    ]);
    const mismatch = await attempt({ ...before.data, birth_date: '1950-01-30' });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json<Body>().issues).toEqual([
      { path: 'birth_date', message: '「出生日期」：出生日期与身份证号不一致' },
    ]);
    // another patient's identity number: 409 as on 编辑患者, and neither the patient nor the record changes
    const other = (await patient(P[5] ?? '')).idNumber;
    const taken = await attempt({ ...before.data, id_number: other, birth_date: '1970-04-15', gender: '1' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json<Body>().message).toContain('身份证号已存在');
    expect(await patient(P[4] ?? '')).toMatchObject({ idNumber: ID4, birthDate: '1949-01-30', gender: '2' });
    expect((await detail(entry, P[4] ?? '')).rowVersion).toBe(before.rowVersion);
  });

  it('should rewrite the bound fields of the patient’s records when the patient is edited', async () => {
    const before = await detail(entry, P[4] ?? '');
    const p = await patient(P[4] ?? '');
    const res = await call(owner, 'PUT', '/patient-info', { id: P[4], rowVersion: p.rowVersion, phone: '13933334444' });
    expect(res.statusCode, res.body).toBe(200);
    const after = await detail(entry, P[4] ?? '');
    expect(after.data.phone).toBe('13933334444');
    expect(after.rowVersion).toBe(before.rowVersion + 1);
    expect(await storedData(before.id ?? '')).toMatchObject({ phone: '13933334444' });
    const [sync] = await auditsOf('form_record', before.id ?? '', 'form_record.patient_sync');
    expect(sync?.reason).toBe('患者信息修改，绑定字段随之更新');
    const history = (await call(entry, 'GET', `/form-record/history?recordId=${before.id}&path=phone`)).json<
      Body<{ versions: ValueVersionVO[] }>
    >().data;
    expect(history.versions.map((v) => v.value)).toEqual(['13933334444', '13911112222']);
  });

  it('should mask bound values for a member without patient.pii and refuse its change of them', async () => {
    const seen = await detail(clerk, P[4] ?? '');
    expect(seen.data).toMatchObject({
      name: '张**',
      gender: '2',
      birth_date: '1949-**-**',
      id_number: '1101**********0046',
      phone: '139****4444',
    });
    expect([...seen.maskedPaths].sort()).toEqual(['birth_date', 'id_number', 'name', 'phone']);
    expect(JSON.stringify(seen)).not.toContain('张桂芝');
    const refused = await save(clerk, {
      patientId: P[4],
      formKey: 'demographics',
      rowVersion: seen.rowVersion,
      data: { ...seen.data, name: '王五' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json<Body>().message).toBe('没有查看患者身份信息的权限，不能修改绑定患者信息的字段「姓名」');
    // what it saw, sent back with another change: the patient stays as it was
    const kept = await save(clerk, {
      patientId: P[4],
      formKey: 'demographics',
      rowVersion: seen.rowVersion,
      data: { ...seen.data, ethnicity: '02' },
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(await patient(P[4] ?? '')).toMatchObject({ name: '张桂芝', phone: '13933334444', birthDate: '1949-01-30' });
    expect(await storedData(seen.id ?? '')).toMatchObject({ name: '张桂芝', ethnicity: '02', id_number: ID4 });
  });

  it('should refuse a patient edit that would change a locked record’s bound field', async () => {
    const current = await detail(entry, P[4] ?? '');
    const submitted = await save(entry, {
      patientId: P[4],
      formKey: 'demographics',
      rowVersion: current.rowVersion,
      action: 'submit',
      data: current.data,
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const record = submitted.json<Body<FormRecordVO>>().data;
    const locked = await call(owner, 'POST', '/form-record/status', {
      id: record.id,
      rowVersion: record.rowVersion,
      action: 'lock',
    });
    expect(locked.statusCode, locked.body).toBe(200);
    const p = await patient(P[4] ?? '');
    const res = await call(owner, 'PUT', '/patient-info', { id: P[4], rowVersion: p.rowVersion, name: '张三丰' });
    expect(res.statusCode).toBe(409);
    expect(res.json<Body>().message).toBe('表单「人口学资料」已锁定，不能修改其中绑定的患者信息，请先解锁');
    expect((await patient(P[4] ?? '')).name).toBe('张桂芝');
  });
});

describe('publishing bindings', () => {
  it('should refuse to publish a binding whose field type does not fit, naming the field in Chinese', async () => {
    const draft = (await call(owner, 'GET', '/form-definition/draft')).json<Body<{ revision: number }>>().data;
    const definition: Definition = {
      ...DEFINITION,
      categories: DEFINITION.categories.map((c) => ({
        ...c,
        forms: c.forms.map((f) => ({
          ...f,
          fields: f.fields.map((field) =>
            field.key === 'birth_date' ? { ...field, type: 'text' as const, maxDate: undefined } : field,
          ),
        })),
      })),
    };
    const saved = await call(owner, 'PUT', '/form-definition/draft', { revision: draft.revision, definition });
    expect(saved.statusCode, saved.body).toBe(200);
    const revision = saved.json<Body<{ revision: number }>>().data.revision;
    const res = await call(owner, 'POST', '/form-definition/publish', { revision, confirmDataLoss: true });
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>().issues).toContainEqual({
      path: 'categories.0.forms.0.fields.2.binding',
      message: '「出生日期」(birth_date)绑定了患者信息「出生日期」，字段类型须为日期',
    });
  });
});
