import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Definition, FieldDefinition } from '@registry/shared/forms/definition';
import { auditEvents, centers, formRecords, formVersions } from '../../db/schema';
import { HF_REG_DEFINITION, HFPEF_DEFINITION } from '../../db/seed-database';
import { center, hospital, member, project, publishCrf, type Account } from '../../../test/factories';
import { createBareTestApp, type TestApp } from '../../../test/test-app';

/**
 * The patient list's CRF columns: values of list-flagged fields from the first live instance of their form, filters
 * and sorting on them, PHI values withheld without `patient.pii`, the center rule and the sub-project's parent fields.
 */

type Body<T = unknown> = { status: number; message: string; data: T; issues?: { path: string; message: string }[] };
type Row = { id: string; patientNo: string; hospitalNo: string | null; name: string; fields: Record<string, unknown> };
type Page = { records: Row[]; total: number };

let t: TestApp;
let owner: string;
let entry: string;
let clerk: string;
let hfId: string;
let subId: string;
let ownerAccount: Account;
let versionId: string;
let tenantId: string;
const ids: Record<string, string> = {};

/**
 * HF-REG version 2: more list-flagged fields (a date, a radio, a checkbox, a decimal with a missing-data code), and
 * name and gender as CRF-only fields (not bound to the patient record, as a definition without bindings has them).
 */
const flag = (keys: string[]) => (field: FieldDefinition) => {
  const { binding: _bound, ...unbound } = field;
  return keys.includes(field.key) ? { ...unbound, listColumn: true } : unbound;
};
const V2: Definition = {
  ...HF_REG_DEFINITION,
  categories: HF_REG_DEFINITION.categories.map((category) => ({
    ...category,
    forms: category.forms.map((form) => ({
      ...form,
      fields: form.fields.map(flag(['vs_date', 'weight', 'nyha', 'comorbidities', 'name', 'gender', 'age'])),
    })),
  })),
};

const page = async (token: string, body: Record<string, unknown> = {}) =>
  t.api({ method: 'POST', url: '/patient-info/page', token, payload: { current: 1, size: 50, ...body } });
const rows = async (token: string, body: Record<string, unknown> = {}) => {
  const res = await page(token, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Body<Page>>().data;
};
const hospitalNos = (p: Page) => p.records.map((r) => r.hospitalNo);

async function record(patient: string, formKey: string, data: Record<string, unknown>, extra = {}) {
  await t.db
    .insert(formRecords)
    .values({ tenantId, projectId: hfId, patientId: ids[patient] ?? '', formKey, versionId, data, ...extra });
}

beforeAll(async () => {
  t = await createBareTestApp();
  // HF-REG of a hospital's administrator (owner): the heart-failure CRF published as v1 through the API, v2 (more
  // list fields) inserted below, centers C01 and C02, entry (data entry at C01), a clerk (custom role 登记员) and the
  // sub-project HF-REG-HFPEF.
  const h = await hospital(t);
  const hf = await project(t, h.admin, { code: 'HF-REG' });
  hfId = hf.id;
  tenantId = hf.tenantId;
  await publishCrf(t, h.admin.token, HF_REG_DEFINITION);
  const [v] = await t.db
    .insert(formVersions)
    .values({ tenantId, projectId: hfId, versionNo: 2, definition: V2, changes: [], publishedBy: h.admin.id })
    .returning();
  versionId = v?.id ?? '';
  const c02 = await center(t, hf, { code: 'C02' });
  const clerkRole = await t.api({
    method: 'POST',
    url: '/project-role',
    token: h.admin.token,
    payload: { code: 'clerk', name: '登记员', permissions: ['patient.list', 'patient.add'] },
  });
  expect(clerkRole.statusCode, clerkRole.body).toBe(200);
  entry = (await member(t, hf, 'data_entry')).token;
  clerk = (await member(t, hf, 'clerk', { centerId: null })).token;
  // the sub-project HF-REG-HFPEF with its own forms
  subId = (await project(t, h.admin, { code: 'HF-REG-HFPEF', parentId: hf.id })).id;
  await publishCrf(t, h.admin.token, HFPEF_DEFINITION);
  ownerAccount = h.admin;
  owner = await t.login(h.admin.username, h.admin.password);
  await t.api({ method: 'GET', url: `/web-project/change?projectId=${hfId}`, token: owner });

  const add = async (key: string, body: Record<string, unknown>) => {
    const res = await t.api({ method: 'POST', url: '/patient-info', token: owner, payload: body });
    expect(res.statusCode, res.body).toBe(200);
    ids[key] = res.json<Body<{ id: string }>>().data.id;
  };
  const c01 = { id: hf.defaultCenterId };
  await add('a', { name: '赵一', hospitalNo: 'L001', centerId: c01?.id });
  await add('b', { name: '钱二', hospitalNo: 'L002', centerId: c01?.id });
  await add('c', { name: '孙三', hospitalNo: 'L003', centerId: c01?.id });
  await add('d', { name: '李四', hospitalNo: 'L004', centerId: c02?.id });
  await add('e', { name: '周五', hospitalNo: 'L005', centerId: c01?.id });

  await record('a', 'demographics', { name: '赵一', gender: '1', birth_date: '1960-02-01', age: 66 });
  await record('a', 'vital_signs', { vs_date: '2026-01-10', height: 170, weight: 70, bmi: 24.2 });
  await record('a', 'echocardiography', { nyha: '2' });
  await record('a', 'medical_history', { smoking: '0', comorbidities: ['htn', 'dm'], primary_diagnosis: 'I50' });
  await record('b', 'demographics', { name: '钱二', gender: '2', age: 71 });
  await record('b', 'vital_signs', { vs_date: '2026-02-20', height: 160, weight: 'UNK' });
  await record('b', 'echocardiography', { nyha: '3' });
  await record('b', 'medical_history', { smoking: '1', comorbidities: ['af'] });
  await record('c', 'vital_signs', { vs_date: '2025-12-31', height: 180, weight: 95.5, bmi: 29.5 });
  // c's first medical history instance was removed: its values are not shown
  await record('c', 'medical_history', { comorbidities: ['htn'] }, { deletedAt: new Date() });
  await record('d', 'vital_signs', { vs_date: '2026-01-15', height: 175, weight: 70, bmi: 22.9 });
  await record('d', 'echocardiography', { nyha: '2' });
  // e has data only in a second instance (the list reads instance 1)
  await record('e', 'vital_signs', { vs_date: '2026-03-01', weight: 60 }, { instance: 2 });
});
afterAll(async () => {
  await t.close();
});

describe('POST patient-info/page — CRF list columns', () => {
  it('should carry the values of the list-flagged fields from the first live instance of their form', async () => {
    const data = await rows(owner, { sortField: 'patientNo', sortOrder: 'asc' });
    const byNo = Object.fromEntries(data.records.map((r) => [r.hospitalNo, r.fields]));
    expect(byNo.L001).toEqual({
      name: '赵一',
      gender: '1',
      age: 66,
      vs_date: '2026-01-10',
      weight: 70,
      bmi: 24.2,
      primary_diagnosis: 'I50',
      comorbidities: ['htn', 'dm'],
      nyha: '2',
    });
    expect(byNo.L002).toMatchObject({ weight: 'UNK', bmi: null, nyha: '3', comorbidities: ['af'] });
    expect(byNo.L003).toMatchObject({ weight: 95.5, comorbidities: null, name: null });
    expect(byNo.L005).toMatchObject({ weight: null, vs_date: null });
    expect(Object.keys(byNo.L005 ?? {})).toHaveLength(9);
  });

  it('should withhold PHI field values but show the others when the caller lacks patient.pii', async () => {
    const data = await rows(clerk);
    const a = data.records.find((r) => r.id === ids.a);
    expect(a?.fields).toMatchObject({ name: null, gender: '1', weight: 70 });
    expect(a?.name).toBe('赵*');
  });

  it('should audit the unmasked page and leave a masked page unaudited', async () => {
    const before = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'patient.pii_read'));
    await rows(clerk, { fieldFilters: [{ fieldKey: 'weight', op: 'notEmpty' }] });
    const mid = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'patient.pii_read'));
    expect(mid).toHaveLength(before.length);
    await rows(owner, { fieldFilters: [{ fieldKey: 'weight', op: 'notEmpty' }] });
    const after = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'patient.pii_read'));
    expect(after).toHaveLength(before.length + 1);
  });

  it('should filter numbers by equality and range, reading a missing-data code as no number', async () => {
    expect(
      hospitalNos(await rows(owner, { fieldFilters: [{ fieldKey: 'weight', op: 'eq', value: 70 }] })).sort(),
    ).toEqual(['L001', 'L004']);
    expect(hospitalNos(await rows(owner, { fieldFilters: [{ fieldKey: 'weight', op: 'gte', value: '80' }] }))).toEqual([
      'L003',
    ]);
    expect(
      hospitalNos(
        await rows(owner, {
          fieldFilters: [
            { fieldKey: 'bmi', op: 'gte', value: 23 },
            { fieldKey: 'bmi', op: 'lte', value: 25 },
          ],
        }),
      ),
    ).toEqual(['L001']);
    expect(hospitalNos(await rows(owner, { fieldFilters: [{ fieldKey: 'weight', op: 'eq', value: 'UNK' }] }))).toEqual([
      'L002',
    ]);
  });

  it('should filter dates by range and choices by code, a checkbox by one of its codes', async () => {
    const inJanuary = await rows(owner, {
      fieldFilters: [
        { fieldKey: 'vs_date', op: 'gte', value: '2026-01-01' },
        { fieldKey: 'vs_date', op: 'lte', value: '2026-01-31' },
      ],
    });
    expect(hospitalNos(inJanuary).sort()).toEqual(['L001', 'L004']);
    expect(hospitalNos(await rows(owner, { fieldFilters: [{ fieldKey: 'nyha', op: 'eq', value: '3' }] }))).toEqual([
      'L002',
    ]);
    expect(hospitalNos(await rows(owner, { fieldFilters: [{ fieldKey: 'gender', op: 'eq', value: '2' }] }))).toEqual([
      'L002',
    ]);
    expect(
      hospitalNos(await rows(owner, { fieldFilters: [{ fieldKey: 'comorbidities', op: 'eq', value: 'htn' }] })),
    ).toEqual(['L001']);
  });

  it('should filter text by a part of it, literally, and by emptiness', async () => {
    expect(
      hospitalNos(await rows(owner, { fieldFilters: [{ fieldKey: 'name', op: 'contains', value: '钱' }] })),
    ).toEqual(['L002']);
    expect((await rows(owner, { fieldFilters: [{ fieldKey: 'name', op: 'contains', value: '%' }] })).total).toBe(0);
    const noName = await rows(owner, { fieldFilters: [{ fieldKey: 'name', op: 'empty' }] });
    expect(hospitalNos(noName).sort()).toEqual(['L003', 'L004', 'L005']);
    const withNyha = await rows(owner, { fieldFilters: [{ fieldKey: 'nyha', op: 'notEmpty' }] });
    expect(withNyha.total).toBe(3);
  });

  it('should sort by a CRF field numerically with blanks last in both directions', async () => {
    const asc = await rows(owner, { sortField: 'field:weight', sortOrder: 'asc' });
    // ties in patient-number order, blanks (and the missing-data code) after every number
    expect(hospitalNos(asc).slice(0, 3)).toEqual(['L001', 'L004', 'L003']);
    expect(asc.records.slice(3).every((r) => typeof r.fields.weight !== 'number')).toBe(true);
    const desc = await rows(owner, { sortField: 'field:weight', sortOrder: 'desc' });
    expect(hospitalNos(desc).slice(0, 3)).toEqual(['L003', 'L004', 'L001']);
    expect(desc.records.slice(3).every((r) => typeof r.fields.weight !== 'number')).toBe(true);
    const byDate = await rows(owner, { sortField: 'field:vs_date', sortOrder: 'asc' });
    expect(hospitalNos(byDate).slice(0, 4)).toEqual(['L003', 'L001', 'L004', 'L002']);
  });

  it('should keep the center rule when a CRF filter matches a patient of another center', async () => {
    const data = await rows(entry, { fieldFilters: [{ fieldKey: 'weight', op: 'eq', value: 70 }] });
    expect(hospitalNos(data)).toEqual(['L001']);
    expect(data.total).toBe(1);
  });

  it.each([
    [
      { fieldFilters: [{ fieldKey: 'height', op: 'eq', value: 170 }] },
      'fieldFilters.0.fieldKey',
      '字段 height 不是列表字段',
    ],
    [{ fieldFilters: [{ fieldKey: 'nope', op: 'empty' }] }, 'fieldFilters.0.fieldKey', '字段 nope 不是列表字段'],
    [{ sortField: 'field:height' }, 'sortField', '字段 height 不是列表字段'],
    [
      { fieldFilters: [{ fieldKey: 'weight', op: 'gte', value: 'heavy' }] },
      'fieldFilters.0.value',
      '「体重」的筛选值须为数字',
    ],
    [
      { fieldFilters: [{ fieldKey: 'vs_date', op: 'gte', value: '2026-02-30' }] },
      'fieldFilters.0.value',
      '「测量日期」的筛选值须为日期（YYYY-MM-DD）',
    ],
    [
      { fieldFilters: [{ fieldKey: 'nyha', op: 'eq', value: '9' }] },
      'fieldFilters.0.value',
      '「NYHA 心功能分级」没有编码为 9 的选项',
    ],
    [
      { fieldFilters: [{ fieldKey: 'gender', op: 'eq', value: 'x' }] },
      'fieldFilters.0.value',
      '「性别」没有编码为 x 的选项',
    ],
    [
      { fieldFilters: [{ fieldKey: 'weight', op: 'contains', value: '7' }] },
      'fieldFilters.0.op',
      '「体重」不支持“包含”筛选',
    ],
    [{ fieldFilters: [{ fieldKey: 'weight', op: 'eq' }] }, 'fieldFilters.0.value', '请输入「体重」的筛选值'],
  ])('should answer 400 naming the problem when the query is %j', async (body, path, message) => {
    const res = await page(owner, body);
    expect(res.statusCode, res.body).toBe(400);
    const json = res.json<Body>();
    expect(json.message).toBe(message);
    expect(json.issues).toContainEqual({ path, message });
  });

  it('should answer 400 from the contract when the sort key breaks the key pattern', async () => {
    const res = await page(owner, { sortField: "field:x'; drop table patients; --" });
    expect(res.statusCode).toBe(400);
  });

  it('should refuse filtering or sorting on a PHI field without patient.pii', async () => {
    const byFilter = await page(clerk, { fieldFilters: [{ fieldKey: 'name', op: 'contains', value: '赵' }] });
    expect(byFilter.statusCode).toBe(403);
    expect(byFilter.json<Body>().message).toBe('没有查看患者身份信息的权限，不能按「姓名」筛选或排序');
    expect((await page(clerk, { sortField: 'field:name' })).statusCode).toBe(403);
  });

  it('should neither filter, sort nor keyword-match on the masked hospital number without patient.pii', async () => {
    // a prefix search or an order would spell out the masked value character by character
    const byFilter = await page(clerk, { hospitalNo: 'L001' });
    expect(byFilter.statusCode).toBe(403);
    expect(byFilter.json<Body>().message).toBe('没有查看患者身份信息的权限，不能按住院号查询');
    const bySort = await page(clerk, { sortField: 'hospitalNo', sortOrder: 'asc' });
    expect(bySort.statusCode).toBe(403);
    expect(bySort.json<Body>().message).toBe('没有查看患者身份信息的权限，不能按住院号排序');
    expect((await rows(clerk, { keyword: 'L00' })).total).toBe(0);
    expect((await rows(clerk, { keyword: 'L001' })).total).toBe(0);
    const shown = (await rows(clerk)).records.find((r) => r.id === ids.a);
    expect(shown?.hospitalNo).toBe('****');
    // with patient.pii all three work
    expect(hospitalNos(await rows(owner, { hospitalNo: 'L001' }))).toEqual(['L001']);
    expect(hospitalNos(await rows(owner, { keyword: 'L00', sortField: 'hospitalNo', sortOrder: 'asc' }))).toEqual([
      'L001',
      'L002',
      'L003',
      'L004',
      'L005',
    ]);
  });

  it('should list the parent project’s CRF columns in a sub-project', async () => {
    const token = await t.login(ownerAccount.username, ownerAccount.password);
    await t.api({ method: 'GET', url: `/web-project/change?projectId=${subId}`, token });
    const c01 = (
      await t.db
        .select()
        .from(centers)
        .where(and(eq(centers.projectId, hfId), eq(centers.code, 'C01')))
    )[0];
    const res = await t.api({
      method: 'POST',
      url: '/patient-info',
      token,
      payload: { name: '吴六', hospitalNo: 'L006', centerId: c01?.id },
    });
    expect(res.statusCode, res.body).toBe(200);
    ids.f = res.json<Body<{ id: string }>>().data.id;
    await record('f', 'vital_signs', { weight: 88 });
    const data = await rows(token, { fieldFilters: [{ fieldKey: 'weight', op: 'gte', value: 80 }] });
    expect(hospitalNos(data)).toEqual(['L006']);
    expect(data.records[0]?.fields.weight).toBe(88);
  });
});
