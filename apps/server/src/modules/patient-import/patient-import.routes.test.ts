import { readdir } from 'node:fs/promises';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportCellError, ImportCommitResponse, ImportReport } from '@registry/shared/contracts/patient-import';
import { auditEvents, files, formRecords, importBatches, patients, recordValueVersions } from '../../db/schema';
import { HF_REG_DEFINITION, HFPEF_DEFINITION } from '../../db/seed-database';
import {
  center,
  enterProject,
  hospital,
  member,
  project,
  publishCrf,
  type Account,
  type TestProject,
} from '../../../test/factories';
import { PNG_1X1 } from '../../../test/files';
import { countRows, createBareTestApp, type TestApp } from '../../../test/test-app';

type Body<T = unknown> = { status: number; message: string; data: T; issues?: { path: string; message: string }[] };
type Patient = { id: string; patientNo: string; rowVersion: number };

/** A GB 11643 identity number: 17 digits plus the computed check character. */
function idNo(first17: string): string {
  const w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...first17].reduce((acc, d, i) => acc + Number(d) * (w[i] ?? 0), 0);
  return first17 + '10X98765432'.charAt(sum % 11);
}

const ID_MALE_1990 = idNo('11010519900307123'); // 1990-03-07, male
const ID_FEMALE_1985 = idNo('31010419850512004'); // 1985-05-12, female
const ID_MALE_1970 = idNo('11010219700101005'); // 1970-01-01, male
const ID_FEMALE_1992 = idNo('44030619920815002'); // 1992-08-15, female
const BAD_ID = ID_MALE_1990.slice(0, 17) + (ID_MALE_1990.endsWith('0') ? '1' : '0');
const day = (iso: string) => new Date(`${iso}T00:00:00Z`);

let t: TestApp;
/** The hospital administrator who owns the project (and its sub-project). */
let ownerAccount: Account;
let hf: TestProject;
let owner: string;
let entry: string;
let clerk: string;
let viewer: string;
let hfId: string;
let subId: string;
let tenantId: string;
let v1Id: string;
let c01: string;
let existingC01: Patient;
let existingC02: Patient;
let template: Buffer;
/** Row-2 key → column letter of the template. */
const letters = new Map<string, string>();

function multipart(name: string, data: Buffer) {
  const boundary = `----import${Math.random().toString(16).slice(2)}`;
  return {
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
const upload = (token: string, call: 'dry-run' | 'commit', data: Buffer, name = '导入.xlsx') =>
  t.api({ method: 'POST', url: `/patient-import/${call}`, token, ...multipart(name, data) });

/** The template filled with rows (keys of row 2 → cell values), as a user would fill it in Excel. */
async function workbook(rows: Record<string, ExcelJS.CellValue>[]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(template as unknown as ExcelJS.Buffer);
  const sheet = book.getWorksheet('患者数据');
  if (!sheet) throw new Error('no sheet');
  rows.forEach((values, i) => {
    for (const [key, value] of Object.entries(values)) {
      const letter = letters.get(key);
      if (!letter) throw new Error(`no column ${key}`);
      sheet.getCell(`${letter}${i + 3}`).value = value;
    }
  });
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function storedFiles(): Promise<number> {
  const root = path.join(t.dataDir, 'files');
  const walk = async (dir: string): Promise<number> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    let n = 0;
    for (const e of entries) n += e.isDirectory() ? await walk(path.join(dir, e.name)) : 1;
    return n;
  };
  return walk(root);
}

const TABLES = [
  'patients',
  'form_records',
  'record_value_versions',
  'audit_events',
  'files',
  'import_batches',
  'data_queries',
] as const;
type Snapshot = Record<(typeof TABLES)[number] | 'storedFiles', number>;
/** Row counts of every table an import writes, and the files in the storage directory. */
async function snapshot(): Promise<Snapshot> {
  const counts = { storedFiles: await storedFiles() } as Snapshot;
  for (const table of TABLES) counts[table] = await countRows(t, table);
  return counts;
}

beforeAll(async () => {
  t = await createBareTestApp();
  // 心力衰竭注册登记研究 of a hospital's administrator (owner) with its CRF published (v1), centers C01 and C02, its
  // sub-project with its own forms, a data-entry member at C01 (entry), a clerk who may add but not edit patients and
  // a viewer who may only list them (custom roles, every center), a patient at C01 and one at C02
  const h = await hospital(t);
  ownerAccount = h.admin;
  owner = h.admin.token;
  hf = await project(t, h.admin, { code: 'HF-REG', name: '心力衰竭注册登记研究' });
  hfId = hf.id;
  tenantId = hf.tenantId;
  c01 = hf.defaultCenterId;
  v1Id = (await publishCrf(t, owner, HF_REG_DEFINITION)).id;
  const c02 = (await center(t, hf, { code: 'C02' })).id;
  const role = async (code: string, permissions: string[]) => {
    const res = await t.api({
      method: 'POST',
      url: '/project-role',
      token: owner,
      payload: { code, name: code, permissions },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  await role('clerk', ['patient.list', 'patient.add']);
  await role('reader', ['patient.list']);
  entry = (await member(t, hf, 'data_entry', { centerId: c01 })).token;
  clerk = (await member(t, hf, 'clerk', { centerId: null })).token;
  viewer = (await member(t, hf, 'reader', { centerId: null })).token;
  subId = (await project(t, h.admin, { code: 'HF-REG-HFPEF', parentId: hf.id })).id;
  await publishCrf(t, owner, HFPEF_DEFINITION);
  await enterProject(t, owner, hfId);
  const add = async (payload: Record<string, unknown>) => {
    const res = await t.api({ method: 'POST', url: '/patient-info', token: owner, payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Body<Patient>>().data;
  };
  existingC01 = await add({ name: '王建国', hospitalNo: 'ZY-EXIST', centerId: c01 });
  existingC02 = await add({ name: '李秀英', hospitalNo: 'ZY-C02', centerId: c02 });

  const res = await t.api({ method: 'GET', url: '/patient-import/template', token: owner });
  expect(res.statusCode, res.body).toBe(200);
  template = res.rawPayload;
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(template as unknown as ExcelJS.Buffer);
  book
    .getWorksheet('患者数据')
    ?.getRow(2)
    .eachCell((cell, n) => {
      letters.set(String(cell.value), book.getWorksheet('患者数据')?.getColumn(n).letter ?? '');
    });
});
afterAll(async () => {
  await t.close();
});

describe('GET patient-import/template', () => {
  it('should build the template from the published version with labels, keys, lists and the guide', async () => {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(template as unknown as ExcelJS.Buffer);
    const sheet = book.getWorksheet('患者数据');
    expect(sheet).toBeDefined();
    const labels = (sheet?.getRow(1).values as unknown[]).filter(Boolean);
    expect(labels.slice(0, 10)).toEqual([
      '患者编号',
      '姓名',
      '性别',
      '出生日期',
      '住院号',
      '身份证号',
      '手机号',
      '中心编码',
      '入组日期',
      '状态',
    ]);
    expect(letters.get('patient.patientNo')).toBe('A');
    expect(letters.get('patient.status')).toBe('J');
    // The 人口学资料 fields bound to the patient record are the demographic columns, not a second set:
    // the CRF's first column is its first unbound field, and no header appears twice.
    for (const key of ['name', 'gender', 'birth_date', 'phone', 'id_number']) expect(letters.has(key)).toBe(false);
    expect(letters.get('ethnicity')).toBe('K');
    expect(new Set(labels).size).toBe(labels.length);
    // data fields of non-repeating, non-follow-up forms only; no calc, group or follow-up fields
    for (const key of ['weight', 'sbp', 'smoking', 'comorbidities', 'nyha', 'nt_probnp'])
      expect(letters.has(key)).toBe(true);
    for (const key of ['bmi', 'age', 'meds', 'other_labs', 'fu_date', 'lab_item']) expect(letters.has(key)).toBe(false);
    expect(sheet?.getCell(`${letters.get('weight')}1`).value).toBe('体重（kg）');
    const gender = sheet?.getCell('C3').dataValidation;
    expect(gender?.type).toBe('list');
    const nyha = sheet?.getCell(`${letters.get('nyha')}10`).dataValidation;
    expect(nyha?.type).toBe('list');
    const options = book.getWorksheet('选项');
    expect(options?.state).toBe('hidden');
    expect(book.getWorksheet('填写说明')?.getCell('A1').value).toContain(hf.name);
    const res = await t.api({ method: 'GET', url: '/patient-import/template', token: owner });
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toContain("filename*=UTF-8''");
  });

  it('should answer 403 without patient.add (also before a project is chosen) and 401 without a session', async () => {
    expect((await t.api({ method: 'GET', url: '/patient-import/template', token: viewer })).statusCode).toBe(403);
    expect((await t.api({ method: 'GET', url: '/patient-import/template' })).statusCode).toBe(401);
    const fresh = await t.login(ownerAccount.username, ownerAccount.password);
    // patient.add is a project permission: none before entering a project
    expect((await t.api({ method: 'GET', url: '/patient-import/template', token: fresh })).statusCode).toBe(403);
  });
});

describe('POST patient-import/dry-run', () => {
  const GOOD_ROW = {
    'patient.name': '张三',
    'patient.gender': '男',
    'patient.birthDate': day('1990-03-07'),
    'patient.hospitalNo': 'ZY-N1',
    'patient.idNumber': ID_MALE_1990,
    'patient.phone': '13912345678',
    'patient.centerCode': 'C01',
    'patient.enrolDate': day('2026-01-05'),
    'patient.status': '已入组',
    vs_date: day('2026-01-10'),
    height: 170,
    weight: 70,
    sbp: 120,
    dbp: 80,
    smoking: '否',
    comorbidities: '高血压，糖尿病',
    nyha: 'II级',
  };

  it('should report every bad cell with row, column, header, masked value and message, and write nothing', async () => {
    const before = await snapshot();
    const file = await workbook([
      GOOD_ROW, // row 3
      { 'patient.name': '行四', nyha: 'V级' }, // wrong option
      { 'patient.name': '行五', weight: 500 }, // out of range
      { 'patient.name': '行六', vs_date: '2026-13-45' }, // bad date
      { 'patient.name': '行七', 'patient.idNumber': BAD_ID }, // bad checksum
      { 'patient.name': '行八', 'patient.hospitalNo': 'ZY-N1' }, // duplicate within the file
      { 'patient.name': '行九', 'patient.hospitalNo': 'ZY-C02' }, // duplicate against the database (another center)
      { 'patient.name': '行十', 'patient.centerCode': 'C99' }, // unknown center
      { 'patient.name': '行十一', sbp: '一百二' }, // not a number
      { 'patient.name': '行十二', sbp: 100, dbp: 120 }, // cross-field rule
      { 'patient.name': '行十三', smoking: '否', smoking_packs: 2 }, // hidden by show-if
      { 'patient.name': '行十四', 'patient.idNumber': ID_FEMALE_1985, 'patient.birthDate': day('1985-05-13') },
      { 'patient.name': '行十五', 'patient.phone': '12345678901' },
      { 'patient.patientNo': 'C01-9999', weight: 60 },
      { 'patient.name': '行十七', 'patient.gender': '男', 'patient.idNumber': ID_FEMALE_1992 },
    ]);
    const res = await upload(entry, 'dry-run', file, '门诊患者.xlsx');
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json<Body<ImportReport>>().data;
    expect(report).toMatchObject({ fileName: '门诊患者.xlsx', versionNo: 1, rowCount: 15, newPatients: 14, ok: false });
    const at = (row: number, key: string) =>
      report.errors.filter((e) => e.row === row && e.column === letters.get(key));
    const expectError = (row: number, key: string, expected: Partial<ImportCellError>) =>
      expect(at(row, key), JSON.stringify(report.errors.filter((e) => e.row === row))).toContainEqual(
        expect.objectContaining(expected),
      );
    expect(report.errors.filter((e) => e.row === 3)).toEqual([]);
    expectError(4, 'nyha', {
      header: 'NYHA 心功能分级',
      field: 'nyha',
      value: 'V级',
      message: '「NYHA 心功能分级」没有编码为 V级 的选项',
    });
    expectError(5, 'weight', { value: '500', message: '「体重」不能大于 300 kg' });
    expectError(6, 'vs_date', { value: '2026-13-45', message: '「测量日期」须为有效日期（YYYY-MM-DD）' });
    expectError(7, 'patient.idNumber', {
      header: '身份证号',
      field: 'idNumber',
      value: `1101**********${BAD_ID.slice(-4)}`,
      message: '身份证号格式不正确或校验位错误',
    });
    expectError(8, 'patient.hospitalNo', { value: 'ZY-N1', message: '住院号与第 3 行重复' });
    expectError(9, 'patient.hospitalNo', { message: `住院号已存在：与患者 ${existingC02.patientNo} 重复` });
    expectError(10, 'patient.centerCode', { value: 'C99', message: '中心编码 C99 不存在或不在您的权限范围内' });
    expectError(11, 'sbp', { value: '一百二', message: '「收缩压」须为数字' });
    expectError(12, 'dbp', { message: '舒张压应低于收缩压' });
    expectError(13, 'smoking_packs', { message: expect.stringContaining('「每日吸烟量」按显示条件当前不显示') });
    expectError(14, 'patient.birthDate', { message: '出生日期与身份证号不一致' });
    expectError(15, 'patient.phone', { value: '123****8901', message: '手机号应为11位中国大陆手机号' });
    expectError(16, 'patient.patientNo', { message: '患者编号 C01-9999 不存在' });
    expectError(17, 'patient.gender', { message: '性别与身份证号不一致' });
    // every cell error names its column letter and header
    for (const e of report.errors) expect(e.column).not.toBe('');
    expect(await snapshot()).toEqual(before);
  });

  it('should count what a good file would write and still write nothing', async () => {
    const before = await snapshot();
    const res = await upload(
      owner,
      'dry-run',
      await workbook([GOOD_ROW, { 'patient.hospitalNo': 'ZY-EXIST', weight: 72 }]),
    );
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json<Body<ImportReport>>().data;
    expect(report).toMatchObject({ ok: true, rowCount: 2, newPatients: 1, existingPatients: 1, errors: [] });
    // row 3: 8 CRF cells + the computed BMI; row 4: the weight of a new record
    expect(report.valueCount).toBe(10);
    expect(await snapshot()).toEqual(before);
  });

  it('should refuse to change an existing patient without patient.edit, a locked form and one patient twice', async () => {
    const [lockedRecord] = await t.db
      .insert(formRecords)
      .values({
        tenantId,
        projectId: hfId,
        patientId: existingC02.id,
        formKey: 'medical_history',
        versionId: v1Id,
        data: { smoking: '0' },
        status: 'locked',
      })
      .returning();
    const byClerk = await upload(clerk, 'dry-run', await workbook([{ 'patient.hospitalNo': 'ZY-EXIST', weight: 61 }]));
    expect(byClerk.json<Body<ImportReport>>().data.errors).toContainEqual(
      expect.objectContaining({ row: 3, field: 'hospitalNo', message: '修改已有患者需要“修改患者”权限' }),
    );
    const byOwner = await upload(
      owner,
      'dry-run',
      await workbook([
        { 'patient.patientNo': existingC02.patientNo, smoking: '是' },
        { 'patient.hospitalNo': 'ZY-EXIST', weight: 61 },
        { 'patient.patientNo': existingC01.patientNo, height: 171 },
      ]),
    );
    const errors = byOwner.json<Body<ImportReport>>().data.errors;
    expect(errors).toContainEqual(
      expect.objectContaining({ row: 3, column: letters.get('smoking'), message: '表单「病史」已锁定，不能导入' }),
    );
    expect(errors).toContainEqual(
      expect.objectContaining({ row: 5, message: '与第 4 行是同一患者，一名患者只能占一行' }),
    );
    await t.db.delete(formRecords).where(eq(formRecords.id, lockedRecord?.id ?? ''));
  });

  it('should report unknown keys of row 2 and refuse files that are not the template', async () => {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(template as unknown as ExcelJS.Buffer);
    const sheet = book.getWorksheet('患者数据');
    if (!sheet) throw new Error('no sheet');
    sheet.getCell(`${letters.get('weight')}2`).value = 'waist_size';
    sheet.getCell('B3').value = '赵六';
    const res = await upload(owner, 'dry-run', Buffer.from(await book.xlsx.writeBuffer()));
    expect(res.json<Body<ImportReport>>().data.errors).toContainEqual(
      expect.objectContaining({
        row: 2,
        column: letters.get('weight'),
        field: 'waist_size',
        message: expect.stringContaining('未知的变量名 waist_size'),
      }),
    );

    const other = new ExcelJS.Workbook();
    other.addWorksheet('Sheet1').getCell('A1').value = 'x';
    const noSheet = await upload(owner, 'dry-run', Buffer.from(await other.xlsx.writeBuffer()));
    expect(noSheet.statusCode).toBe(400);
    expect(noSheet.json<Body>().message).toContain('没有工作表「患者数据」');
    const png = await upload(owner, 'dry-run', PNG_1X1, 'photo.png');
    expect(png.statusCode).toBe(400);
    expect(png.json<Body>().message).toBe('请上传 Excel 文件（.xlsx）');
    const renamed = await upload(owner, 'dry-run', PNG_1X1, 'photo.xlsx');
    expect(renamed.statusCode).toBe(400);
    const none = await t.api({ method: 'POST', url: '/patient-import/dry-run', token: owner, payload: {} });
    expect(none.statusCode).toBe(400);
    expect((await upload(viewer, 'dry-run', template)).statusCode).toBe(403);
  });
});

describe('POST patient-import/commit', () => {
  it('should write nothing and answer 400 with the issues when one cell is bad', async () => {
    const before = await snapshot();
    const res = await upload(
      owner,
      'commit',
      await workbook([
        { 'patient.name': '周一', 'patient.centerCode': 'C01', weight: 70 },
        { 'patient.name': '周二', 'patient.centerCode': 'C01', nyha: 'V级' },
      ]),
    );
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json<Body>();
    expect(body.message).toBe('导入文件有 1 处错误，未写入任何数据');
    expect(body.issues).toEqual([
      { path: `第4行 ${letters.get('nyha')}列 NYHA 心功能分级`, message: '「NYHA 心功能分级」没有编码为 V级 的选项' },
    ]);
    expect(await snapshot()).toEqual(before);
  });

  it('should write every row in one go, each value pointing at its batch and row, with the audit trail', async () => {
    await t.db.insert(formRecords).values({
      tenantId,
      projectId: hfId,
      patientId: existingC01.id,
      formKey: 'vital_signs',
      versionId: v1Id,
      data: { height: 160, weight: 60, sbp: 110, dbp: 70, bmi: 23.4 },
      status: 'submitted',
    });
    const before = await snapshot();
    const file = await workbook([
      {
        'patient.name': '孙七',
        'patient.idNumber': ID_MALE_1970,
        'patient.hospitalNo': 'ZY-NEW7',
        'patient.centerCode': 'C01',
        height: 170,
        weight: 70,
        sbp: 130,
        dbp: 85,
        smoking: '是',
        smoking_packs: 1.5,
        nyha: '2',
      },
      { 'patient.hospitalNo': 'ZY-EXIST', 'patient.phone': '13800001111', weight: 65 },
      { 'patient.patientNo': existingC02.patientNo, nyha: 'III级', lvef: 35 },
    ]);
    const res = await upload(owner, 'commit', file, '批量导入.xlsx');
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json<Body<ImportCommitResponse>>().data;
    expect(result).toMatchObject({ rowCount: 3, createdPatients: 1, updatedPatients: 2 });

    const after = await snapshot();
    expect(after.patients).toBe(before.patients + 1);
    expect(after.import_batches).toBe(before.import_batches + 1);
    expect(after.files).toBe(before.files + 1);
    expect(after.storedFiles).toBe(before.storedFiles + 1);

    const [batch] = await t.db.select().from(importBatches).where(eq(importBatches.id, result.batchId));
    expect(batch).toMatchObject({ fileName: '批量导入.xlsx', rowCount: 3, createdPatients: 1, updatedPatients: 2 });
    const [file0] = await t.db
      .select()
      .from(files)
      .where(eq(files.id, batch?.fileId ?? ''));
    expect(file0?.originalName).toBe('批量导入.xlsx');

    // the new patient: encrypted identity number, birth data from it, its forms as drafts, the BMI computed
    const [created] = await t.db.select().from(patients).where(eq(patients.hospitalNo, 'ZY-NEW7'));
    expect(created).toMatchObject({ name: '孙七', birthDate: '1970-01-01', gender: '1' });
    expect(created?.idNumberEnc).not.toContain(ID_MALE_1970);
    const createdRecords = await t.db
      .select()
      .from(formRecords)
      .where(eq(formRecords.patientId, created?.id ?? ''));
    expect(createdRecords.map((r) => r.formKey).sort()).toEqual(['echocardiography', 'medical_history', 'vital_signs']);
    const vitals = createdRecords.find((r) => r.formKey === 'vital_signs');
    expect(vitals).toMatchObject({ status: 'draft', data: { height: 170, weight: 70, sbp: 130, dbp: 85, bmi: 24.2 } });

    // the submitted record stays submitted, with the import as the reason
    const [updated] = await t.db
      .select()
      .from(formRecords)
      .where(and(eq(formRecords.patientId, existingC01.id), eq(formRecords.formKey, 'vital_signs')));
    expect(updated).toMatchObject({ status: 'submitted', rowVersion: 2 });
    expect((updated?.data as Record<string, unknown>).weight).toBe(65);

    // each value's version points at the batch and its row; calcs are the server's own
    const rowOf = new Map([
      [created?.id, 3],
      [existingC01.id, 4],
      [existingC02.id, 5],
    ]);
    const versions = await t.db
      .select()
      .from(recordValueVersions)
      .where(inArray(recordValueVersions.patientId, [created?.id ?? '', existingC01.id, existingC02.id]));
    expect(versions.length).toBe(after.record_value_versions - before.record_value_versions);
    expect(versions.length).toBe(result.valueCount);
    for (const v of versions) {
      if (v.path === 'bmi') {
        expect(v.sourceType).toBe('calc');
        continue;
      }
      expect(v.sourceType, v.path).toBe('import');
      expect(v.sourceRef).toEqual({ batchId: result.batchId, fileName: '批量导入.xlsx', row: rowOf.get(v.patientId) });
    }
    const weightChange = versions.find((v) => v.patientId === existingC01.id && v.path === 'weight');
    expect(weightChange).toMatchObject({ value: 65, reason: 'Excel 导入：批量导入.xlsx 第 4 行' });

    // the audit trail: the batch, the file, the new patient, the changed patient and each record
    const fresh = await t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.requestId, String(res.headers['x-request-id'])));
    expect(fresh).toHaveLength(after.audit_events - before.audit_events);
    const actions = fresh.map((e) => e.action).sort();
    expect(actions).toEqual(
      [
        'file.upload',
        'form_record.create',
        'form_record.create',
        'form_record.create',
        'form_record.create',
        'form_record.update',
        'patient.create',
        'patient.import',
        'patient.update',
      ].sort(),
    );
    const importEvent = fresh.find((e) => e.action === 'patient.import');
    expect(importEvent).toMatchObject({ entityType: 'import_batch', entityId: result.batchId });
    expect(importEvent?.newValue).toMatchObject({ projectId: hfId, rowCount: 3, valueCount: result.valueCount });
    const patientUpdate = fresh.find((e) => e.action === 'patient.update');
    expect(patientUpdate?.newValue).toMatchObject({ phone: '138****1111' });

    // the list shows the imported values
    const list = await t.api({
      method: 'POST',
      url: '/patient-info/page',
      token: owner,
      payload: { current: 1, size: 10, hospitalNo: 'ZY-NEW7' },
    });
    expect(list.json<Body<{ records: { fields: Record<string, unknown> }[] }>>().data.records[0]?.fields.bmi).toBe(
      24.2,
    );
  });

  it('should fill the 人口学资料 fields bound to the patient from the demographic columns, once', async () => {
    // an existing patient whose 人口学资料 was saved before: the row changes its phone and its ethnicity
    const added = await t.api({
      method: 'POST',
      url: '/patient-info',
      token: owner,
      payload: { name: '钱八', hospitalNo: 'ZY-BOUND', centerId: c01 },
    });
    const existing = added.json<Body<Patient>>().data;
    const [stored] = await t.db
      .insert(formRecords)
      .values({
        tenantId,
        projectId: hfId,
        patientId: existing.id,
        formKey: 'demographics',
        versionId: v1Id,
        data: { name: '钱八', ethnicity: '01' },
        status: 'draft',
      })
      .returning();
    const file = await workbook([
      {
        'patient.name': '李九',
        'patient.idNumber': ID_FEMALE_1985,
        'patient.phone': '13955556666',
        'patient.hospitalNo': 'ZY-NEW9',
        'patient.centerCode': 'C01',
        ethnicity: '01',
      },
      { 'patient.hospitalNo': 'ZY-BOUND', 'patient.phone': '13977778888', ethnicity: '02' },
    ]);
    const res = await upload(owner, 'commit', file, '人口学.xlsx');
    expect(res.statusCode, res.body).toBe(200);
    const [created] = await t.db.select().from(patients).where(eq(patients.hospitalNo, 'ZY-NEW9'));
    const [demo] = await t.db
      .select()
      .from(formRecords)
      .where(and(eq(formRecords.patientId, created?.id ?? ''), eq(formRecords.formKey, 'demographics')));
    expect(demo?.data).toEqual({
      name: '李九',
      gender: '2',
      birth_date: '1985-05-12',
      age: expect.any(Number),
      id_number: ID_FEMALE_1985,
      phone: '13955556666',
      ethnicity: '01',
    });
    const [again] = await t.db
      .select()
      .from(formRecords)
      .where(eq(formRecords.id, stored?.id ?? ''));
    expect(again?.data).toEqual({ name: '钱八', phone: '13977778888', ethnicity: '02' });
  });

  it('should roll everything back when the database refuses a row in the middle of the commit', async () => {
    // a rule the checks do not know: two patients of a project may not share a name
    await t.database
      .ownerPool()
      .query('create unique index import_test_name_uq on patients (project_id, name) where deleted_at is null');
    try {
      const before = await snapshot();
      const res = await upload(
        owner,
        'commit',
        await workbook([
          { 'patient.name': '同名', 'patient.centerCode': 'C01', weight: 70, height: 170 },
          { 'patient.name': '别名', 'patient.centerCode': 'C02', nyha: '1' },
          { 'patient.name': '同名', 'patient.centerCode': 'C01', weight: 80 },
        ]),
      );
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json<Body>().message).toBe('导入时发现与他人同时录入的数据冲突，未写入任何数据，请重新检查后再导入');
      expect(await snapshot()).toEqual(before);
    } finally {
      await t.database.ownerPool().query('drop index import_test_name_uq');
    }
  });

  it('should refuse an empty template and a file over the row limit', async () => {
    const empty = await upload(owner, 'commit', template);
    expect(empty.statusCode).toBe(400);
    expect(empty.json<Body>().message).toBe('文件中没有要导入的数据');
    const dry = await upload(owner, 'dry-run', template);
    expect(dry.json<Body<ImportReport>>().data).toMatchObject({ rowCount: 0, ok: false });
    const big = await workbook(Array.from({ length: 5001 }, (_, i) => ({ 'patient.name': `患者${i}` })));
    const res = await upload(owner, 'dry-run', big);
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>().message).toBe('一次最多导入 5000 行，请分成多个文件导入');
  });

  it('should import into a sub-project its parent’s forms and its own, the patients in its cohort', async () => {
    const token = await t.login(ownerAccount.username, ownerAccount.password);
    await enterProject(t, token, subId);
    const tpl = await t.api({ method: 'GET', url: '/patient-import/template', token });
    expect(tpl.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(tpl.rawPayload as unknown as ExcelJS.Buffer);
    const sheet = book.getWorksheet('患者数据');
    if (!sheet) throw new Error('no sheet');
    const keys = (sheet.getRow(2).values as unknown[]).filter(Boolean).map(String);
    expect(keys).toEqual(expect.arrayContaining(['weight', 'e_e_ratio', 'h2fpef_score']));
    const col = (key: string) => keys.indexOf(key) + 1;
    sheet.getRow(3).getCell(col('patient.name')).value = '郑八';
    sheet.getRow(3).getCell(col('patient.centerCode')).value = 'C01';
    sheet.getRow(3).getCell(col('weight')).value = 66;
    sheet.getRow(3).getCell(col('h2fpef_score')).value = 7;
    const res = await upload(token, 'commit', Buffer.from(await book.xlsx.writeBuffer()));
    expect(res.statusCode, res.body).toBe(200);
    const [created] = await t.db.select().from(patients).where(eq(patients.name, '郑八'));
    expect(created?.subProjectId).toBe(subId);
    const records = await t.db
      .select()
      .from(formRecords)
      .where(eq(formRecords.patientId, created?.id ?? ''));
    expect(records.map((r) => [r.formKey, r.projectId]).sort()).toEqual([
      ['hfpef_assessment', subId],
      ['vital_signs', subId],
    ]);
    expect(records.find((r) => r.formKey === 'hfpef_assessment')?.data).toEqual({ h2fpef_score: 7, hfpef_likely: 1 });
  });

  it('should answer 403 without patient.add and 400 without a file', async () => {
    expect((await upload(viewer, 'commit', template)).statusCode).toBe(403);
    const res = await t.api({
      method: 'POST',
      url: '/patient-import/commit',
      token: owner,
      ...multipart('x.xlsx', Buffer.alloc(0)),
    });
    expect(res.statusCode).toBe(400);
  });
});
