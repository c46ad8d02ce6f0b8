import ExcelJS from 'exceljs';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, fieldDictOptions, fieldDicts } from '../../db/schema';
import { buildTenant } from '../../../test/factories';
import { multipartFile } from '../../../test/files';
import { hospital, member, project } from '../../../test/factories';
import { createBareTestApp, type TestApp } from '../../../test/test-app';

type Body<T = unknown> = { status: number; message: string; data: T; issues?: { path: string; message: string }[] };
type Report = {
  fileName: string;
  encoding: string | null;
  rowCount: number;
  created: number;
  updated: number;
  unchanged: number;
  disabled: number;
  errors: { row: number; column: string | null; value: string | null; message: string }[];
  errorCount: number;
  ok: boolean;
};
type Option = { code: string; label: string; parentCode: string | null; enabled: boolean; dictCode: string };
type Page<T> = { records: T[]; total: number };

let t: TestApp;
let owner: string;
let entry: string;

const newList = async (code: string) => {
  const res = await t.api({ method: 'POST', url: '/sys-field-dict', token: owner, payload: { code, name: code } });
  return res.json<Body<{ id: string }>>().data.id;
};
const upload = (
  call: 'dry-run' | 'commit',
  dictId: string,
  name: string,
  data: Buffer,
  opts: { token?: string; disableMissing?: boolean } = {},
) =>
  t.api({
    method: 'POST',
    url: `/sys-field-dict/import/${call}?dictId=${dictId}${opts.disableMissing ? '&disableMissing=true' : ''}`,
    token: opts.token ?? owner,
    ...multipartFile(name, data),
  });
const search = async (dictCode: string, keyword: string, size = 10) =>
  (
    await t.api({
      method: 'POST',
      url: '/sys-field-dict-option/page',
      token: entry,
      payload: { dictCode, keyword, current: 1, size },
    })
  ).json<Body<Page<Option>>>().data;
const optionsOf = (dictId: string) => t.db.select().from(fieldDictOptions).where(eq(fieldDictOptions.dictId, dictId));

async function xlsx(rows: (string | number)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('诊断');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A hospital's diagnosis list in the shape of the 国家临床版: I50 with its sub-codes, plus `n` generated rows. */
function diagnosisRows(n: number): (string | number)[][] {
  const rows: (string | number)[][] = [
    ['疾病编码', '疾病名称', '上级编码'],
    ['I50', '心力衰竭', ''],
    ['I50.0', '充血性心力衰竭', 'I50'],
    ['I50.900x001', '慢性心力衰竭', 'I50'],
    ['I50.101', '急性左心衰竭', 'I50'],
    ['A17.0+G01*', '结核性脑膜炎', ''],
    ['J18.9', '肺炎', ''],
  ];
  for (let i = 0; i < n; i++) rows.push([`Z${String(i).padStart(6, '0')}`, `测试诊断第${i}号`, '']);
  return rows;
}

beforeAll(async () => {
  t = await createBareTestApp();
  // A project with its owner and a data-entry member, both in it.
  const p = await project(t, (await hospital(t)).admin);
  owner = p.owner.token;
  entry = (await member(t, p, 'data_entry')).token;
});
afterAll(async () => {
  await t?.close();
});

describe('code-list import', () => {
  it('should import a diagnosis list of 30,000 rows in one audited change, then find I50 by code, name and pinyin', async () => {
    const dictId = await newList('hosp_dx');
    const file = await xlsx(diagnosisRows(30_000 - 6));

    const dry = await upload('dry-run', dictId, '国家临床版2.0.xlsx', file);
    expect(dry.statusCode).toBe(200);
    expect(dry.json<Body<Report>>().data).toMatchObject({
      rowCount: 30_000,
      created: 30_000,
      updated: 0,
      errorCount: 0,
      ok: true,
      encoding: null,
    });
    expect(await optionsOf(dictId)).toHaveLength(0); // a dry run writes nothing

    const auditBefore = await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, dictId));
    const commit = await upload('commit', dictId, '国家临床版2.0.xlsx', file);
    expect(commit.statusCode).toBe(200);
    expect(commit.json<Body<Report>>().data).toMatchObject({ created: 30_000, ok: true });
    expect(await optionsOf(dictId)).toHaveLength(30_000);
    const events = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, dictId), eq(auditEvents.action, 'field_dict.import')));
    expect(events.length - auditBefore.filter((e) => e.action === 'field_dict.import').length).toBe(1);
    expect(events[0]?.newValue).toMatchObject({ fileName: '国家临床版2.0.xlsx', created: 30_000, rowCount: 30_000 });

    // by code: the exact code first, then the codes under it in the list's order
    const byCode = await search('hosp_dx', 'I50');
    expect(byCode.records.map((o) => o.code)).toEqual(['I50', 'I50.0', 'I50.900x001', 'I50.101']);
    expect(byCode.records[1]).toMatchObject({ label: '充血性心力衰竭', parentCode: 'I50' });
    // by name
    expect((await search('hosp_dx', '心力衰竭')).records.map((o) => o.code)).toEqual(['I50', 'I50.0', 'I50.900x001']);
    // by pinyin initials (拼音码) and by syllables
    expect((await search('hosp_dx', 'xlsj')).records.map((o) => o.code)).toEqual(['I50', 'I50.0', 'I50.900x001']);
    expect((await search('hosp_dx', 'XLSJ')).total).toBe(3);
    expect((await search('hosp_dx', 'jxzxsj')).records.map((o) => o.label)).toEqual(['急性左心衰竭']);
    expect((await search('hosp_dx', 'feiyan')).records.map((o) => o.code)).toEqual(['J18.9']);
    // dagger-asterisk codes are kept as written
    expect((await search('hosp_dx', 'A17.0+G01*')).records.map((o) => o.label)).toEqual(['结核性脑膜炎']);
  });

  it('should update names and order by code on a re-import, and disable the options the file no longer names', async () => {
    const dictId = await newList('hosp_dx2');
    await upload('commit', dictId, 'v1.xlsx', await xlsx(diagnosisRows(0)));
    const v2 = await xlsx([
      ['编码', '名称', '上级编码'],
      ['I50', '心力衰竭', ''],
      ['I50.0', '充血性心力衰竭（全心衰）', 'I50'],
      ['I50.900x001', '慢性心力衰竭', 'I50'],
      ['I50.101', '急性左心衰竭', 'I50'],
      ['I11.0', '高血压性心脏病伴心力衰竭', ''],
    ]);
    const dry = (await upload('dry-run', dictId, 'v2.xlsx', v2, { disableMissing: true })).json<Body<Report>>().data;
    expect(dry).toMatchObject({ created: 1, updated: 1, unchanged: 3, disabled: 2, ok: true });
    await upload('commit', dictId, 'v2.xlsx', v2, { disableMissing: true });
    const rows = await optionsOf(dictId);
    expect(rows.find((o) => o.code === 'I50.0')?.label).toBe('充血性心力衰竭（全心衰）');
    expect(rows.find((o) => o.code === 'J18.9')?.enabled).toBe(false); // kept for the records that hold it
    expect(rows.find((o) => o.code === 'I11.0')).toMatchObject({
      enabled: true,
      pinyin: expect.stringMatching(/^gxyxxzb/),
    });
    // the renamed option is found by its new name's pinyin (全心衰: qxs)
    expect((await search('hosp_dx2', 'qxs')).records.map((o) => o.code)).toEqual(['I50.0']);
  });

  it('should read a GBK CSV with semicolons, as Excel saves it on Chinese Windows', async () => {
    const dictId = await newList('gbk_list');
    // 编码;名称;上级编码 / I50;心力衰竭; / I50.0;充血性心力衰竭;I50 — in GBK bytes
    const gbk = Buffer.from(
      'b1e0c2eb3bc3fbb3c63bc9cfbcb6b1e0c2eb0a4935303bd0c4c1a6cba5bddf3b0a4935302e303bb3e4d1aad0d4d0c4c1a6cba5bddf3b4935300a',
      'hex',
    );
    const res = await upload('commit', dictId, '诊断.csv', gbk);
    expect(res.statusCode).toBe(200);
    expect(res.json<Body<Report>>().data).toMatchObject({ encoding: 'GB18030', created: 2 });
    expect((await optionsOf(dictId)).map((o) => o.label).sort()).toEqual(['充血性心力衰竭', '心力衰竭']);
  });

  it('should read a UTF-8 CSV with a BOM, tabs and quoted names holding the delimiter', async () => {
    const dictId = await newList('tab_list');
    const csv = '\uFEFF代码\t名称\t启用\nK21.0\t"胃食管反流病\t伴食管炎"\t是\nK21.9\t胃食管反流病\t否\n';
    const res = await upload('commit', dictId, 'list.csv', Buffer.from(csv, 'utf8'));
    expect(res.json<Body<Report>>().data).toMatchObject({ encoding: 'UTF-8', created: 2 });
    const rows = await optionsOf(dictId);
    expect(rows.find((o) => o.code === 'K21.0')?.label).toBe('胃食管反流病\t伴食管炎');
    expect(rows.find((o) => o.code === 'K21.9')?.enabled).toBe(false);
  });

  it('should list every bad row, and a commit with any problem writes nothing', async () => {
    const dictId = await newList('bad_list');
    const file = await xlsx([
      ['编码', '名称', '上级编码', '排序'],
      ['I50', '心力衰竭', '', ''],
      ['I50', '重复的编码', '', ''],
      ['I51', '', '', ''],
      ['I 52', '带空格的编码', '', ''],
      ['I53', '上级不存在', 'X99', ''],
      ['I54', '排序不是数字', '', 'abc'],
    ]);
    const dry = (await upload('dry-run', dictId, 'bad.xlsx', file)).json<Body<Report>>().data;
    expect(dry.ok).toBe(false);
    expect(dry.errors.map((e) => [e.row, e.column, e.message])).toEqual([
      [3, '编码', '编码与第 2 行重复'],
      [4, '名称', '名称不能为空'],
      [5, '编码', '选项编码只能包含字母、数字和 _ . - + * /'],
      [6, '上级编码', '上级编码 X99 既不在文件中，也不在该字典中'],
      [7, '排序', '排序须为 0 到 1000000 之间的整数'],
    ]);
    const commit = await upload('commit', dictId, 'bad.xlsx', file);
    expect(commit.statusCode).toBe(400);
    expect(commit.json<Body>().message).toBe('导入文件有 5 处错误，未写入任何数据');
    expect(commit.json<Body>().issues?.[0]).toEqual({ path: '第3行 编码', message: '编码与第 2 行重复' });
    expect(await optionsOf(dictId)).toHaveLength(0);
  });

  it('should refuse a file without a code column, an unclosed quote, and what is not a code list', async () => {
    const dictId = await newList('refused_list');
    const noCode = await upload(
      'dry-run',
      dictId,
      'a.xlsx',
      await xlsx([
        ['名字', '名称'],
        ['x', 'y'],
      ]),
    );
    expect(noCode.statusCode, noCode.body).toBe(200);
    expect(noCode.json<Body<Report>>().data.errors[0]?.message).toMatch(/^缺少“编码”列/);
    const unclosed = await upload('dry-run', dictId, 'a.csv', Buffer.from('编码,名称\nI50,"心力衰竭\nI51,心肌炎\n'));
    expect(unclosed.statusCode).toBe(400);
    expect(unclosed.json<Body>().message).toMatch(/引号没有闭合/);
    const pdf = await upload('dry-run', dictId, 'a.pdf', Buffer.from('%PDF-1.4\n'));
    expect(pdf.statusCode).toBe(400);
    expect(pdf.json<Body>().message).toBe('请上传 Excel（.xlsx）或 CSV 文件');
    const latin1 = await upload('dry-run', dictId, 'a.csv', Buffer.from([0x81, 0x30, 0x81]));
    expect(latin1.statusCode).toBe(400);
    expect(latin1.json<Body>().message).toMatch(/^无法识别文件编码/);
  });

  it("should refuse built-in lists, another tenant's list and users without database.config", async () => {
    const [icd] = await t.db.select().from(fieldDicts).where(eq(fieldDicts.code, 'icd10'));
    const file = await xlsx(diagnosisRows(0));
    const builtIn = await upload('commit', icd?.id ?? '', 'x.xlsx', file);
    expect(builtIn.statusCode).toBe(403);
    const other = await buildTenant(t.db);
    const [foreign] = await t.db
      .insert(fieldDicts)
      .values({ tenantId: other.tenant.id, code: 'their_list', name: '外院字典' })
      .returning();
    expect((await upload('commit', foreign?.id ?? '', 'x.xlsx', file)).statusCode).toBe(404);
    expect(await optionsOf(foreign?.id ?? '')).toHaveLength(0);
    const dictId = await newList('entry_cannot');
    expect((await upload('commit', dictId, 'x.xlsx', file, { token: entry })).statusCode).toBe(403);
  });
});
