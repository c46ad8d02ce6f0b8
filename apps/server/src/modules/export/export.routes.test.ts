import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import type { ExportJobVO } from '@registry/shared/contracts/export';
import { DEFAULT_MISSING_CODES, type Definition } from '@registry/shared/forms/definition';
import { auditEvents, exportPseudonyms } from '../../db/schema';
import { center, hospital, member, patient, project, publishCrf } from '../../../test/factories';
import { createBareTestApp, type TestApp } from '../../../test/test-app';

/**
 * `/retrieval/export`: an export job asked by a call runs in the app's worker, reads one snapshot of the caller's
 * scope and writes a file that reads back equal to what was entered; de-identified files hold none of the PHI; every
 * ask, completion and download is audited; identified exports need patient.export and patient.pii.
 */

type Body<T = unknown> = { status: number; message: string; data: T; issues?: { path: string; message: string }[] };

const DEFINITION: Definition = {
  missingCodes: DEFAULT_MISSING_CODES,
  categories: [
    {
      key: 'baseline',
      title: '基线资料',
      forms: [
        {
          key: 'visit',
          title: '基线访视',
          fields: [
            { key: 'pt_name', label: '姓名', type: 'text', binding: 'patient.name' },
            { key: 'weight', label: '体重', type: 'decimal', precision: 1 },
            { key: 'visit_date', label: '访视日期', type: 'date' },
            { key: 'visit_at', label: '访视时间', type: 'datetime' },
            {
              key: 'smoker',
              label: '吸烟',
              type: 'radio',
              options: [
                { code: '1', label: '从不' },
                { code: '2', label: '现在' },
              ],
            },
            {
              key: 'symptoms',
              label: '症状',
              type: 'checkbox',
              options: [
                { code: 'dyspnea', label: '气促' },
                { code: 'edema', label: '水肿' },
              ],
            },
            { key: 'note', label: '备注', type: 'textarea' },
            { key: 'home_address', label: '家庭住址', type: 'text', phi: true },
            {
              key: 'meds',
              label: '用药',
              type: 'group',
              fields: [
                { key: 'drug', label: '药物', type: 'text' },
                { key: 'dose', label: '剂量', type: 'decimal' },
              ],
            },
          ],
        },
        {
          key: 'labs',
          title: '化验',
          repeating: true,
          fields: [
            { key: 'lb_date', label: '检验日期', type: 'date' },
            { key: 'lb_value', label: '结果', type: 'decimal', precision: 2 },
          ],
        },
      ],
    },
  ],
};

/** The PHI of the cohort: none of these strings may appear in a de-identified export's bytes. */
const PHI = [
  '王建国',
  '李秀英',
  '刘淑珍',
  '110101196001020033',
  '13912345678',
  'ZY0001',
  '北京市东城区幸福路8号',
  '1960-01-02',
];

let t: TestApp;
let owner: string;
let stat: string;
let lead1: string;
let stat1: string;
let c1: string;
let patientNos: string[] = [];
let queryId: string;

const ask = (token: string, payload: Record<string, unknown>) =>
  t.api({ method: 'POST', url: '/retrieval/export', token, payload });

async function finished(token: string, id: string): Promise<ExportJobVO> {
  for (let i = 0; i < 300; i++) {
    const res = await t.api({ method: 'GET', url: `/retrieval/export/detail?id=${id}`, token });
    expect(res.statusCode, res.body).toBe(200);
    const vo = res.json<Body<ExportJobVO>>().data;
    if (vo.state !== 'queued' && vo.state !== 'running') return vo;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`export ${id} did not finish`);
}

async function exported(token: string, payload: Record<string, unknown>): Promise<{ vo: ExportJobVO; bytes: Buffer }> {
  const res = await ask(token, payload);
  expect(res.statusCode, res.body).toBe(200);
  const vo = await finished(token, res.json<Body<ExportJobVO>>().data.id);
  expect(vo.state, vo.error ?? '').toBe('completed');
  const file = await t.api({ method: 'GET', url: `/retrieval/export/download?id=${vo.id}`, token });
  expect(file.statusCode, file.body).toBe(200);
  return { vo, bytes: file.rawPayload };
}

const csvOf = (text: string) => parse(text.replace(/^\uFEFF/, ''), { columns: true }) as Record<string, string>[];

beforeAll(async () => {
  t = await createBareTestApp({ JOBS_ENABLED: 'true', JOBS_POLL_MS: '500' }, { logger: { level: 'warn' } });
  const h = await hospital(t);
  const hf = await project(t, h.admin);
  owner = h.admin.token;
  await publishCrf(t, owner, DEFINITION);
  c1 = hf.defaultCenterId;
  const c2 = (await center(t, hf, { code: 'C02' })).id;
  stat = (await member(t, hf, 'statistician', { centerId: null })).token;
  lead1 = (await member(t, hf, 'center_lead', { centerId: c1 })).token;
  stat1 = (await member(t, hf, 'statistician', { centerId: c1 })).token;
  await t.api({ method: 'GET', url: `/web-project/change?projectId=${hf.id}`, token: owner });
  const save = async (patientId: string, formKey: string, data: Record<string, unknown>) => {
    const res = await t.api({
      method: 'POST',
      url: '/form-record/save',
      token: owner,
      payload: { patientId, formKey, rowVersion: 0, data },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const a = await patient(t, owner, {
    name: '王建国',
    gender: '1',
    birthDate: '1960-01-02',
    idNumber: '110101196001020033',
    phone: '13912345678',
    hospitalNo: 'ZY0001',
    enrolDate: '2024-03-10',
    centerId: c1,
  });
  await save(a.id, 'visit', {
    pt_name: '王建国',
    weight: 72.5,
    visit_date: '2024-03-10',
    visit_at: '2024-03-10T08:30',
    smoker: '2',
    symptoms: ['edema'],
    note: '第一行\n第二行',
    home_address: '北京市东城区幸福路8号',
    meds: [
      { drug: '呋塞米', dose: 20 },
      { drug: '螺内酯', dose: 10 },
    ],
  });
  await save(a.id, 'labs', { lb_date: '2024-03-11', lb_value: 1500 });
  await save(a.id, 'labs', { lb_date: '2024-04-11', lb_value: 900.25 });
  const b = await patient(t, owner, { name: '李秀英', gender: '2', enrolDate: '2024-05-01', centerId: c1 });
  await save(b.id, 'visit', { pt_name: '李秀英', weight: 55, smoker: '1', symptoms: [] });
  const c = await patient(t, owner, { name: '刘淑珍', gender: '2', enrolDate: '2023-12-01', centerId: c2 });
  patientNos = [a.patientNo, b.patientNo, c.patientNo];
  const saved = await t.api({
    method: 'POST',
    url: '/retrieval/query',
    token: owner,
    payload: {
      name: '体重60以上',
      shared: true,
      cohort: {
        version: 1,
        root: {
          kind: 'group',
          op: 'and',
          items: [{ kind: 'field', formKey: 'visit', fieldKey: 'weight', op: 'gt', value: 60 }],
        },
      },
    },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  queryId = saved.json<Body<{ id: string }>>().data.id;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('an identified CSV export of the whole project', () => {
  let files: Record<string, Record<string, string>[]>;
  let vo: ExportJobVO;
  let bytes: Buffer;

  beforeAll(async () => {
    ({ vo, bytes } = await exported(owner, { format: 'csv', deidentified: false }));
    const zip = await JSZip.loadAsync(bytes);
    files = {};
    for (const name of Object.keys(zip.files)) files[name] = csvOf(await zip.file(name)!.async('string'));
  }, 60_000);

  it('should write one table of patients, one per repeating form and one per table field, zipped', () => {
    expect(Object.keys(files).sort()).toEqual(['labs.csv', 'patients.csv', 'visit__meds.csv']);
    expect(vo.fileName).toMatch(/_csv\.zip$/);
    expect(vo.rowCount).toBe(3);
    expect(vo.fileSize).toBe(bytes.length);
    expect(vo.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  it('should read back every value as entered, patients in order', () => {
    const patients = files['patients.csv']!;
    expect(patients.map((r) => r.patient_no)).toEqual(patientNos);
    const a = patients[0]!;
    expect(a).toMatchObject({
      name: '王建国',
      gender: '1',
      birth_date: '1960-01-02',
      age: '64',
      id_number: '110101196001020033',
      phone: '13912345678',
      hospital_no: 'ZY0001',
      enrol_date: '2024-03-10',
      weight: '72.5',
      visit_date: '2024-03-10',
      visit_at: '2024-03-10 08:30:00',
      smoker: '2',
      symptoms___dyspnea: '0',
      symptoms___edema: '1',
      note: '第一行\n第二行',
      home_address: '北京市东城区幸福路8号',
      pt_name: '王建国',
    });
    expect(patients[1]).toMatchObject({ weight: '55', smoker: '1', symptoms___dyspnea: '0', symptoms___edema: '0' });
    // no record of the form: every field blank, the checkbox too (missing, not "unticked")
    expect(patients[2]).toMatchObject({ weight: '', smoker: '', symptoms___edema: '' });
    expect(files['labs.csv']).toEqual([
      { patient_no: patientNos[0], instance: '1', lb_date: '2024-03-11', lb_value: '1500' },
      { patient_no: patientNos[0], instance: '2', lb_date: '2024-04-11', lb_value: '900.25' },
    ]);
    expect(files['visit__meds.csv']).toEqual([
      { patient_no: patientNos[0], row_no: '1', drug: '呋塞米', dose: '20' },
      { patient_no: patientNos[0], row_no: '2', drug: '螺内酯', dose: '10' },
    ]);
  });

  it('should audit the ask, the completion with rows and checksum, and the download', async () => {
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, vo.id));
    const actions = events.map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['export.create', 'export.complete', 'export.download']));
    const complete = events.find((e) => e.action === 'export.complete')!;
    expect(complete.newValue).toMatchObject({ rowCount: 3, sha256: vo.sha256, format: 'csv', deidentified: false });
    expect(events.find((e) => e.action === 'export.download')!.newValue).toMatchObject({ sha256: vo.sha256 });
  });
});

describe('a de-identified export', () => {
  it('should hold none of the PHI, know patients by pseudonym and shift each patient’s dates by the kept offset', async () => {
    const { bytes } = await exported(stat, { format: 'csv', deidentified: true });
    const zip = await JSZip.loadAsync(bytes);
    const text = (await Promise.all(Object.values(zip.files).map((f) => f.async('string')))).join('\n');
    for (const phi of [...PHI, ...patientNos]) expect(text).not.toContain(phi);
    const patients = csvOf(await zip.file('patients.csv')!.async('string'));
    expect(Object.keys(patients[0]!)).not.toEqual(expect.arrayContaining(['name']));
    expect(Object.keys(patients[0]!)).not.toContain('home_address');
    expect(Object.keys(patients[0]!)).not.toContain('pt_name'); // bound to the patient's name
    const shifts = await t.db.select().from(exportPseudonyms);
    expect(shifts).toHaveLength(3);
    const first = shifts.find((s) => s.pseudonym === patients[0]!.study_id)!;
    const back = (date: string, days: number) =>
      new Date(Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10)) - days * 86_400_000)
        .toISOString()
        .slice(0, 10);
    expect(patients[0]).toMatchObject({
      enrol_date: back('2024-03-10', first.shiftDays),
      visit_date: back('2024-03-10', first.shiftDays),
      age: '64',
    });
    const labs = csvOf(await zip.file('labs.csv')!.async('string'));
    expect(labs[0]).toMatchObject({ study_id: first.pseudonym, lb_date: back('2024-03-11', first.shiftDays) });

    // a second export (XLSX, of a saved query) agrees: same pseudonym, same shift
    const again = await exported(stat, { format: 'xlsx', deidentified: true, queryId, forms: [{ key: 'visit' }] });
    const zip2 = await JSZip.loadAsync(again.bytes);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await zip2.file('patients.xlsx')!.async('arraybuffer'));
    const sheet = workbook.worksheets[0]!;
    const header = (sheet.getRow(1).values as string[]).slice(1);
    const row = (sheet.getRow(2).values as unknown[]).slice(1);
    expect(again.vo.rowCount).toBe(1); // weight > 60: one patient
    expect(sheet.rowCount).toBe(2);
    expect(row[header.indexOf('study_id')]).toBe(first.pseudonym);
    expect(row[header.indexOf('weight')]).toBe(72.5);
  }, 60_000);

  it('should refuse an identified export to a role without patient.export, in Chinese', async () => {
    const res = await ask(stat, { format: 'csv', deidentified: false });
    expect(res.statusCode).toBe(403);
    expect(res.json<Body>().message).toBe('您的角色只能导出去标识化数据');
  });
});

describe('scope, checks and cancel', () => {
  it('should export only the patients of a center-scoped member’s center', async () => {
    const { vo, bytes } = await exported(stat1, { format: 'csv', forms: [{ key: 'visit', fields: ['weight'] }] });
    expect(vo.rowCount).toBe(2);
    // one table: a CSV file of its own, not a ZIP
    expect(vo.fileName).toMatch(/\.csv$/);
    const rows = csvOf(bytes.toString('utf8'));
    expect(rows.map((r) => r.weight)).toEqual(['72.5', '55']);
    expect(new Set(rows.map((r) => r.center)).size).toBe(1);
    // the center lead holds no retrieval.export: the route refuses
    expect((await ask(lead1, { format: 'csv' })).statusCode).toBe(403);
  }, 60_000);

  it('should name an unknown form or field, and answer an unknown query like a missing one', async () => {
    const bad = await ask(owner, { format: 'csv', forms: [{ key: 'visit', fields: ['weight', "x'; drop table"] }] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<Body>().issues?.[0]).toMatchObject({ path: 'forms.0.fields.1' });
    const unknown = await ask(owner, { format: 'csv', forms: [{ key: 'nope' }] });
    expect(unknown.json<Body>().message).toBe('表单 nope 不存在');
    const query = await ask(owner, { format: 'csv', queryId: '00000000-0000-4000-8000-000000000000' });
    expect(query.statusCode).toBe(404);
    const format = await ask(owner, { format: 'sav' });
    expect(format.statusCode).toBe(400);
    expect(format.json<Body>().message).toContain('导出格式不正确');
  });

  it('should cancel a queued export and refuse to download it', async () => {
    const res = await ask(owner, { format: 'odm', deidentified: false });
    const id = res.json<Body<ExportJobVO>>().data.id;
    const cancelled = await t.api({ method: 'POST', url: '/retrieval/export/cancel', token: owner, payload: { id } });
    // the worker may have finished it already on a fast machine; either way the answer is honest
    if (cancelled.statusCode === 200) {
      expect(cancelled.json<Body<ExportJobVO>>().data.state).toBe('cancelled');
      const vo = await finished(owner, id);
      expect(vo.state).toBe('cancelled');
      const file = await t.api({ method: 'GET', url: `/retrieval/export/download?id=${id}`, token: owner });
      expect(file.statusCode).toBe(409);
    } else expect(cancelled.statusCode).toBe(409);
    // another member may not cancel or download someone's export
    const other = await t.api({ method: 'POST', url: '/retrieval/export/cancel', token: stat, payload: { id } });
    expect(other.statusCode).toBe(403);
  });

  it('should list the project’s exports newest first with who asked', async () => {
    const res = await t.api({ method: 'GET', url: '/retrieval/export/list?current=1&size=50', token: stat });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<Body<{ records: ExportJobVO[]; total: number }>>().data;
    expect(page.total).toBeGreaterThanOrEqual(3);
    expect(page.records.some((r) => r.mine)).toBe(true);
    expect(page.records.some((r) => !r.mine)).toBe(true);
    const mine = await t.api({ method: 'GET', url: '/retrieval/export/list?mine=true', token: stat });
    expect(mine.json<Body<{ records: ExportJobVO[] }>>().data.records.every((r) => r.mine)).toBe(true);
  });
});
