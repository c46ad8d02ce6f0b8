import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, centers, patients } from '../../db/schema';
import { center, hospital, member, project, type Account } from '../../../test/factories';
import { createBareTestApp, type TestApp } from '../../../test/test-app';

type Body<T = unknown> = { status: number; message: string; data: T; issues?: { path: string; message: string }[] };
type Patient = {
  id: string;
  patientNo: string;
  name: string;
  gender: string | null;
  birthDate: string | null;
  hospitalNo: string | null;
  idNumber: string | null;
  phone: string | null;
  masked: boolean;
  centerId: string;
  centerCode: string;
  status: string;
  rowVersion: number;
};
type Page = { records: Patient[]; total: number; current: number; size: number };

/** A GB 11643 identity number: 17 digits plus the computed check character. */
function idNo(first17: string): string {
  const w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...first17].reduce((acc, d, i) => acc + Number(d) * (w[i] ?? 0), 0);
  return first17 + '10X98765432'.charAt(sum % 11);
}

let t: TestApp;
let owner: string;
let entry: string;
let entry2: string;
let viewer: string;
let lead2: string;
/** Adds and lists patients at C01 without `patient.pii` (a custom role). */
let clerk: string;
let ownerAccount: Account;
let hfId: string;
let subId: string;
let c01: string;
let c02: string;
let c01Patient: Patient;
let c02Patient: Patient;

const ID_A = idNo('11010519900307123'); // 1990-03-07, male
const ID_B = idNo('31010419850512004'); // 1985-05-12, female

const api = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  t.api({ method, url, token, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
const create = async (token: string, payload: Record<string, unknown>) => api(token, 'POST', '/patient-info', payload);
const listPage = async (token: string, payload: Record<string, unknown> = {}) =>
  (await api(token, 'POST', '/patient-info/page', { current: 1, size: 50, ...payload })).json<Body<Page>>();
const auditRows = (action: string) => t.db.select().from(auditEvents).where(eq(auditEvents.action, action));

beforeAll(async () => {
  t = await createBareTestApp();
  // hf of a hospital's administrator (owner) with C01 and C02 and a sub-project; data-entry members at C01 (entry)
  // and C02 (entry2), a viewer over all centers, a lead of C02 and a clerk at C01 (custom role 登记员).
  ownerAccount = (await hospital(t)).admin;
  const hf = await project(t, ownerAccount);
  hfId = hf.id;
  subId = (await project(t, ownerAccount, { parentId: hf.id })).id;
  owner = ownerAccount.token;
  c01 = hf.defaultCenterId;
  c02 = (await center(t, hf, { code: 'C02' })).id;
  const clerkRole = await t.api({
    method: 'POST',
    url: '/project-role',
    token: owner,
    payload: { code: 'clerk', name: '登记员', permissions: ['patient.list', 'patient.add'] },
  });
  expect(clerkRole.statusCode, clerkRole.body).toBe(200);
  entry = (await member(t, hf, 'data_entry', { centerId: c01 })).token;
  entry2 = (await member(t, hf, 'data_entry', { centerId: c02 })).token;
  viewer = (await member(t, hf, 'viewer', { centerId: null })).token;
  lead2 = (await member(t, hf, 'center_lead', { centerId: c02 })).token;
  clerk = (await member(t, hf, 'clerk', { centerId: c01 })).token;
  for (const token of [owner, entry, entry2, viewer, lead2, clerk])
    await t.api({ method: 'GET', url: `/web-project/change?projectId=${hfId}`, token });

  const a = await create(owner, {
    name: '欧阳娜娜',
    idNumber: ID_B,
    phone: '13800000001',
    hospitalNo: 'ZY0001',
    centerId: c01,
    enrolDate: '2026-01-05',
    status: 'enrolled',
  });
  expect(a.statusCode, a.body).toBe(200);
  c01Patient = a.json<Body<Patient>>().data;
  const b = await create(entry2, { name: '李四', hospitalNo: 'ZY0002', idNumber: ID_A, gender: '1' });
  expect(b.statusCode, b.body).toBe(200);
  c02Patient = b.json<Body<Patient>>().data;
});
afterAll(async () => {
  await t.close();
});

describe('POST patient-info', () => {
  it('should create a patient with a project number and decoded birth data when the input is valid', () => {
    expect(c01Patient.patientNo).toMatch(/^C01-\d{4}$/);
    expect(c01Patient).toMatchObject({ name: '欧阳娜娜', gender: '2', birthDate: '1985-05-12', idNumber: ID_B });
    expect(c02Patient.patientNo).toMatch(/^C02-\d{4}$/);
    expect(c02Patient.centerId).toBe(c02);
  });

  it('should put the patient in the member center when a center-scoped member adds without a center', async () => {
    const res = await create(entry, { name: '王五', hospitalNo: 'ZY0003' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Body<Patient>>().data.centerId).toBe(c01);
  });

  it('should answer 404 when a center-scoped member adds to another center', async () => {
    const res = await create(entry, { name: '王六', centerId: c02 });
    expect(res.statusCode).toBe(404);
    expect(res.json<Body>().message).toBe('中心不存在或已关闭');
  });

  it('should answer 404 when the center is closed', async () => {
    const [org] = await t.db.select().from(centers).where(eq(centers.id, c01));
    const [closed] = await t.db
      .insert(centers)
      .values({
        tenantId: org?.tenantId ?? '',
        projectId: hfId,
        organisationId: org?.organisationId ?? '',
        code: 'C99',
        name: '已关闭中心',
        status: 'closed',
      })
      .returning();
    const res = await create(owner, { name: '关闭', centerId: closed?.id });
    expect(res.statusCode).toBe(404);
    expect(res.json<Body>().message).toBe('中心不存在或已关闭');
  });

  it('should ask for a center when a member of all centers sends none', async () => {
    const res = await create(owner, { name: '赵六' });
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>().issues?.[0]?.path).toBe('centerId');
  });

  it('should refuse with field issues when identity number, phone or dates are wrong', async () => {
    const badChecksum = await create(owner, { name: '甲', centerId: c01, idNumber: '110105199003071230' });
    expect(badChecksum.statusCode).toBe(400);
    expect(JSON.stringify(badChecksum.json<Body>().issues)).toContain('身份证号');
    const badPhone = await create(owner, { name: '甲', centerId: c01, phone: '1234567' });
    expect(badPhone.statusCode).toBe(400);
    expect(JSON.stringify(badPhone.json<Body>().issues)).toContain('手机号应为11位中国大陆手机号');
    const mismatch = await create(owner, {
      name: '甲',
      centerId: c01,
      idNumber: idNo('11010520000101004'),
      birthDate: '2000-01-02',
      gender: '1',
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json<Body>().issues?.map((i) => i.path)).toEqual(['birthDate', 'gender']);
    const badDate = await create(owner, { name: '甲', centerId: c01, enrolDate: '2026-02-30' });
    expect(badDate.statusCode).toBe(400);
    expect(await t.db.select().from(patients).where(eq(patients.name, '甲'))).toEqual([]);
  });

  it('should answer 409 naming the existing patient number when the identity number is already used', async () => {
    const res = await create(entry, { name: '重复者', idNumber: ID_A.toLowerCase() });
    expect(res.statusCode).toBe(409);
    expect(res.json<Body>().message).toContain('身份证号已存在');
    expect(res.json<Body>().message).toContain(c02Patient.patientNo);
  });

  it('should name the existing patient when a caller with pii hits a duplicate hospital number', async () => {
    const res = await create(lead2, { name: '重复者', hospitalNo: 'ZY0001' });
    expect(res.statusCode).toBe(409);
    expect(res.json<Body>().message).toContain('住院号已存在');
    expect(res.json<Body>().message).toContain(`${c01Patient.patientNo}（欧阳娜娜）`);
  });

  it('should answer 409 with the patient number only when the caller lacks pii', async () => {
    const res = await create(clerk, { name: '重复者', hospitalNo: 'ZY0001' });
    expect(res.statusCode).toBe(409);
    expect(res.json<Body>().message).toContain(c01Patient.patientNo);
    expect(res.json<Body>().message).not.toContain('欧阳');
  });

  it('should answer a masked patient when a caller without pii adds one', async () => {
    const res = await create(clerk, { name: '孙七', phone: '13700000007' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Body<Patient>>().data).toMatchObject({ name: '孙*', phone: '137****0007', centerId: c01 });
  });

  it('should keep the identity number and phone out of the table when a patient is stored', async () => {
    const { rows } = await t.database.pool.query<{ row: string; enc: string; bi: string }>(
      'select p::text as row, id_number_enc as enc, id_number_bi as bi from patients p where id = $1',
      [c01Patient.id],
    );
    const row = rows[0];
    expect(row?.row).not.toContain(ID_B);
    expect(row?.row).not.toContain('13800000001');
    expect(row?.row).not.toContain('0000001');
    expect(row?.enc).toMatch(/^v1:/);
    expect(row?.bi).toMatch(/^[0-9a-f]{32}$/);
  });

  it('should write a create audit event with masked identity data when a patient is added', async () => {
    const rows = (await auditRows('patient.create')).filter((r) => r.entityId === c01Patient.id);
    expect(rows).toHaveLength(1);
    const text = JSON.stringify(rows[0]?.newValue);
    expect(text).not.toContain(ID_B);
    expect(text).not.toContain('欧阳娜娜');
    expect(text).toContain('欧阳**');
    expect(text).toContain('138****0001');
  });
});

describe('POST patient-info/page and GET patient-info/{id}', () => {
  it('should show decrypted data and write one pii_read event when the caller has pii', async () => {
    const before = (await auditRows('patient.pii_read')).length;
    const res = await api(owner, 'POST', '/patient-info/page', { current: 1, size: 50 });
    expect(res.headers['cache-control']).toBe('no-store');
    const page = res.json<Body<Page>>().data;
    const a = page.records.find((p) => p.id === c01Patient.id);
    expect(a).toMatchObject({ name: '欧阳娜娜', idNumber: ID_B, phone: '13800000001', masked: false });
    const events = await auditRows('patient.pii_read');
    expect(events.length).toBe(before + 1);
    expect((events.at(-1)?.newValue as { patientIds: string[] }).patientIds).toEqual(page.records.map((p) => p.id));
  });

  it('should mask name, identity number and phone without an audit event when the caller lacks pii', async () => {
    const before = (await auditRows('patient.pii_read')).length;
    const page = (await listPage(viewer)).data;
    const a = page.records.find((p) => p.id === c01Patient.id);
    expect(a).toMatchObject({ name: '欧阳**', phone: '138****0001', masked: true });
    expect(a?.idNumber).toBe(`${ID_B.slice(0, 4)}**********${ID_B.slice(-4)}`);
    expect(page.records.find((p) => p.id === c02Patient.id)?.name).toBe('李*');
    expect((await auditRows('patient.pii_read')).length).toBe(before);
  });

  it('should mask the birth date and hospital number too, in the list and the detail, when the caller lacks pii', async () => {
    // ID_B carries the birth date 1985-05-12, filled in on add; the CRF masks the same value for this caller.
    const listed = (await listPage(viewer)).data.records.find((p) => p.id === c01Patient.id);
    const detail = (await api(viewer, 'GET', `/patient-info/${c01Patient.id}`)).json<Body<Patient>>().data;
    for (const shown of [listed, detail])
      expect(shown).toMatchObject({ birthDate: '1985-**-**', hospitalNo: '****01' });
    const own = (await api(owner, 'GET', `/patient-info/${c01Patient.id}`)).json<Body<Patient>>().data;
    expect(own).toMatchObject({ birthDate: '1985-05-12', hospitalNo: 'ZY0001' });
  });

  it('should list only the own center patients when a center-scoped member pages', async () => {
    const page = (await listPage(entry)).data;
    expect(page.records.length).toBeGreaterThan(0);
    expect(page.records.every((p) => p.centerId === c01)).toBe(true);
    expect(page.total).toBe(page.records.length);
  });

  it('should find the patient by exact identity number through the blind index', async () => {
    const page = (await listPage(owner, { idNumber: ID_A.toLowerCase() })).data;
    expect(page.records.map((p) => p.id)).toEqual([c02Patient.id]);
    const none = (await listPage(owner, { idNumber: ID_A.slice(0, 10) })).data;
    expect(none.total).toBe(0);
  });

  it('should refuse an identity number search when the caller lacks pii', async () => {
    const res = await api(viewer, 'POST', '/patient-info/page', { idNumber: ID_A });
    expect(res.statusCode).toBe(403);
  });

  it('should filter by hospital number, center, status and enrolment date when asked', async () => {
    expect((await listPage(owner, { hospitalNo: 'ZY0001' })).data.records.map((p) => p.id)).toEqual([c01Patient.id]);
    expect((await listPage(owner, { centerId: c02 })).data.records.every((p) => p.centerId === c02)).toBe(true);
    expect((await listPage(owner, { status: 'enrolled' })).data.records.map((p) => p.id)).toEqual([c01Patient.id]);
    const dated = await listPage(owner, { enrolDateFrom: '2026-01-01', enrolDateTo: '2026-01-31' });
    expect(dated.data.records.map((p) => p.id)).toEqual([c01Patient.id]);
    const sorted = await listPage(owner, { sortField: 'patientNo', sortOrder: 'asc' });
    const nos = sorted.data.records.map((p) => p.patientNo.slice(4));
    expect(nos).toEqual([...nos].sort());
    const bad = await api(owner, 'POST', '/patient-info/page', { sortField: 'name; drop table', size: 1000 });
    expect(bad.statusCode).toBe(400);
  });

  it('should answer one patient with an audited read when the caller has pii', async () => {
    const res = await api(entry, 'GET', `/patient-info/${c01Patient.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json<Body<Patient>>().data.idNumber).toBe(ID_B);
    const events = (await auditRows('patient.pii_read')).filter((e) => e.entityId === c01Patient.id);
    expect(events.length).toBeGreaterThan(0);
  });

  it('should answer 404 when the patient is in another center, missing or not an id', async () => {
    for (const id of [c02Patient.id, '00000000-0000-4000-8000-000000000000', 'abc']) {
      const res = await api(entry, 'GET', `/patient-info/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json<Body>().message).toBe('患者不存在');
    }
  });
});

describe('PUT patient-info', () => {
  it('should save the change and audit masked old and new values when the version is current', async () => {
    const res = await api(entry, 'PUT', '/patient-info', {
      id: c01Patient.id,
      rowVersion: c01Patient.rowVersion,
      phone: '13900000002',
      hospitalNo: 'ZY0101',
    });
    expect(res.statusCode, res.body).toBe(200);
    const saved = res.json<Body<Patient>>().data;
    expect(saved).toMatchObject({ phone: '13900000002', hospitalNo: 'ZY0101', rowVersion: c01Patient.rowVersion + 1 });
    const [event] = (await auditRows('patient.update')).filter((e) => e.entityId === c01Patient.id);
    // The trail keeps identity values masked only, the hospital number too (the one masking policy).
    expect(event?.oldValue).toMatchObject({ phone: '138****0001', hospitalNo: '****01' });
    expect(event?.newValue).toMatchObject({ phone: '139****0002', hospitalNo: '****01' });
    expect(JSON.stringify(event)).not.toContain('13900000002');
    expect(JSON.stringify(event)).not.toContain('ZY0101');
    c01Patient = saved;
  });

  it('should answer 409 when the row version is stale', async () => {
    const res = await api(owner, 'PUT', '/patient-info', {
      id: c01Patient.id,
      rowVersion: c01Patient.rowVersion - 1,
      name: '欧阳娜',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json<Body>().message).toBe('患者信息已被他人修改，请刷新后重试');
  });

  it('should let exactly one of 20 parallel saves win when they carry the same version', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api(owner, 'PUT', '/patient-info', {
          id: c02Patient.id,
          rowVersion: c02Patient.rowVersion,
          hospitalNo: `RACE${i}`,
        }),
      ),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(19);
    const [row] = await t.db.select().from(patients).where(eq(patients.id, c02Patient.id));
    expect(row?.rowVersion).toBe(c02Patient.rowVersion + 1);
    const events = (await auditRows('patient.update')).filter((e) => e.entityId === c02Patient.id);
    expect(events).toHaveLength(1);
    c02Patient = { ...c02Patient, rowVersion: row?.rowVersion ?? 0, hospitalNo: row?.hospitalNo ?? null };
  });

  it('should answer 404 when a member of another center edits', async () => {
    const res = await api(entry, 'PUT', '/patient-info', {
      id: c02Patient.id,
      rowVersion: c02Patient.rowVersion,
      name: '改名',
    });
    expect(res.statusCode).toBe(404);
  });

  it('should refuse an identity number that disagrees with the stored birth date', async () => {
    const res = await api(owner, 'PUT', '/patient-info', {
      id: c01Patient.id,
      rowVersion: c01Patient.rowVersion,
      birthDate: '1985-05-13',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>().issues?.[0]?.path).toBe('birthDate');
  });

  it('should fill an empty birth date and gender when an identity number is added', async () => {
    const added = (await create(owner, { name: '钱九', centerId: c01 })).json<Body<Patient>>().data;
    const id = idNo('32010219771203005');
    const res = await api(owner, 'PUT', '/patient-info', { id: added.id, rowVersion: added.rowVersion, idNumber: id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Body<Patient>>().data).toMatchObject({ idNumber: id, birthDate: '1977-12-03', gender: '1' });
  });

  it('should answer 409 when the edit takes a hospital number of another patient', async () => {
    const res = await api(owner, 'PUT', '/patient-info', {
      id: c01Patient.id,
      rowVersion: c01Patient.rowVersion,
      hospitalNo: c02Patient.hospitalNo,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json<Body>().message).toContain(c02Patient.patientNo);
  });
});

describe('DELETE patient-info', () => {
  it('should ask for a reason when none is given', async () => {
    const res = await api(owner, 'DELETE', `/patient-info?ids=${c01Patient.id}`);
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>().message).toBe('请填写删除原因');
  });

  it('should answer 404 and delete nothing when one id is in another center', async () => {
    const res = await api(lead2, 'DELETE', `/patient-info?ids=${c02Patient.id},${c01Patient.id}&reason=x`);
    expect(res.statusCode).toBe(404);
    const rows = await t.db.select().from(patients).where(eq(patients.id, c02Patient.id));
    expect(rows[0]?.deletedAt).toBeNull();
  });

  it('should soft-delete with the reason and an audit row per patient when the reason is given', async () => {
    const extra = (await create(owner, { name: '待删除', centerId: c01, hospitalNo: 'DEL1' })).json<Body<Patient>>()
      .data;
    const res = await api(
      owner,
      'DELETE',
      `/patient-info?ids=${c01Patient.id},${extra.id}&reason=${encodeURIComponent('重复录入')}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Body<{ deleted: number }>>().data.deleted).toBe(2);
    const [row] = await t.db.select().from(patients).where(eq(patients.id, c01Patient.id));
    expect(row?.deletedAt).not.toBeNull();
    expect(row?.deleteReason).toBe('重复录入');
    const events = (await auditRows('patient.delete')).filter((e) =>
      [c01Patient.id, extra.id].includes(e.entityId ?? ''),
    );
    expect(events).toHaveLength(2);
    expect(events.every((e) => e.reason === '重复录入')).toBe(true);
    expect((await api(owner, 'GET', `/patient-info/${c01Patient.id}`)).statusCode).toBe(404);
    expect((await listPage(owner)).data.records.some((p) => p.id === c01Patient.id)).toBe(false);
    // The identity number of a deleted patient may be used again; its patient number is not reused.
    const again = await create(owner, { name: '欧阳娜娜', centerId: c01, idNumber: ID_B });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<Body<Patient>>().data.patientNo).not.toBe(c01Patient.patientNo);
  });
});

describe('sub-project cohort', () => {
  it('should show a sub-project only its own cohort while the parent sees every patient', async () => {
    const subToken = await t.login(ownerAccount.username, ownerAccount.password);
    const entered = await t.api({
      method: 'GET',
      url: `/web-project/change?projectId=${subId}`,
      token: subToken,
    });
    expect(entered.statusCode, entered.body).toBe(200);
    const res = await create(subToken, { name: '周八', centerId: c02, hospitalNo: 'SUB001' });
    expect(res.statusCode, res.body).toBe(200);
    const subPatient = res.json<Body<Patient>>().data;
    const subList = (await listPage(subToken)).data;
    expect(subList.records.map((p) => p.id)).toEqual([subPatient.id]);
    expect((await api(subToken, 'GET', `/patient-info/${c02Patient.id}`)).statusCode).toBe(404);
    expect((await listPage(owner)).data.records.some((p) => p.id === subPatient.id)).toBe(true);
    // The hospital number is unique across the parent and its sub-projects.
    const dup = await create(owner, { name: '周八', centerId: c02, hospitalNo: 'SUB001' });
    expect(dup.statusCode).toBe(409);
  });
});
