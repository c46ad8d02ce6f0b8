import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import type { CohortCountResponse, CohortRowVO, SavedQueryVO } from '@registry/shared/contracts/retrieval';
import { DEFAULT_MISSING_CODES, type Definition } from '@registry/shared/forms/definition';
import { auditEvents, formRecords } from '../../db/schema';
import { center, hospital, member, patient, project, publishCrf } from '../../../test/factories';
import { createBareTestApp, type TestApp } from '../../../test/test-app';

/**
 * `POST retrieval/count`: a cohort counted over the caller's patients (the session's project and center scope), its
 * field keys checked against the project's published forms, values bound (no input makes a 5xx), retrieval.query
 * required.
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
          key: 'echo',
          title: '超声心动图',
          fields: [
            { key: 'lvef', label: 'LVEF', type: 'integer', unit: '%', min: 5, max: 90 },
            { key: 'score', label: '评分', type: 'integer' },
            { key: 'echo_date', label: '检查日期', type: 'date' },
            { key: 'addr', label: '住址', type: 'text', phi: true },
            {
              key: 'sx',
              label: '症状',
              type: 'checkbox',
              options: [
                { code: 'dyspnea', label: '呼吸困难' },
                { code: 'edema', label: '水肿' },
              ],
            },
            { key: 'img', label: '图像', type: 'file' },
            {
              key: 'meds',
              label: '用药',
              type: 'group',
              fields: [{ key: 'med_name', label: '药名', type: 'text' }],
            },
          ],
        },
        {
          key: 'labs',
          title: '化验',
          repeating: true,
          fields: [
            {
              key: 'lb_item',
              label: '项目',
              type: 'radio',
              options: [
                { code: 'bnp', label: 'NT-proBNP' },
                { code: 'k', label: '血钾' },
              ],
            },
            { key: 'lb_value', label: '结果', type: 'decimal', precision: 2 },
          ],
        },
      ],
    },
  ],
};

let t: TestApp;
let owner: string;
let lead1: string;
let stat: string;
let entry1: string;
let c1: string;
let c2: string;
let patientC: string;
/** A project of another hospital whose form has a field `other_secret`. */
let strangerOwner: string;

const count = (token: string, cohort: unknown) =>
  t.api({ method: 'POST', url: '/retrieval/count', token, payload: { cohort } });
const counted = async (token: string, cohort: unknown) => {
  const res = await count(token, cohort);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Body<CohortCountResponse>>().data;
};
const all = (...items: unknown[]) => ({ version: 1, root: { kind: 'group', op: 'and', items } });

beforeAll(async () => {
  t = await createBareTestApp();
  // a project with centers C01 and C02, the forms above published; a center lead of C01, a statistician of every
  // center, a data-entry member at C01 (no retrieval.query); patients with an LVEF and lab rows at both centers
  const h = await hospital(t);
  const hf = await project(t, h.admin);
  owner = h.admin.token;
  await publishCrf(t, owner, DEFINITION);
  c1 = hf.defaultCenterId;
  c2 = (await center(t, hf, { code: 'C02' })).id;
  lead1 = (await member(t, hf, 'center_lead', { centerId: c1 })).token;
  stat = (await member(t, hf, 'statistician', { centerId: null })).token;
  const entry2 = (await member(t, hf, 'data_entry', { centerId: c2 })).token;
  entry1 = (await member(t, hf, 'data_entry', { centerId: c1 })).token;
  await t.api({ method: 'GET', url: `/web-project/change?projectId=${hf.id}`, token: owner });
  const save = async (token: string, patientId: string, formKey: string, data: Record<string, unknown>) => {
    const res = await t.api({
      method: 'POST',
      url: '/form-record/save',
      token,
      payload: { patientId, formKey, rowVersion: 0, data },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  // C01: LVEF 35 with a BNP row of 1500; LVEF 55 with a BNP row of 200 and a K row of 1500 (never one row > 1000 BNP)
  const a = await patient(t, entry1, { name: '王建国' });
  await save(entry1, a.id, 'echo', {
    lvef: 35,
    score: 10,
    echo_date: '2026-03-01',
    addr: '北京市东城区',
    sx: ['dyspnea', 'edema'],
  });
  await save(entry1, a.id, 'labs', { lb_item: 'bnp', lb_value: 1500 });
  const b = await patient(t, entry1, { name: '李秀英' });
  await save(entry1, b.id, 'echo', { lvef: 55, score: 9, echo_date: '2026-01-15' });
  await save(entry1, b.id, 'labs', { lb_item: 'bnp', lb_value: 200 });
  await save(entry1, b.id, 'labs', { lb_item: 'k', lb_value: 1500 });
  // C02: LVEF 30 with a BNP row of 2000; no LVEF
  const c = await patient(t, entry2, { name: '刘淑珍' });
  await save(entry2, c.id, 'echo', { lvef: 30, score: 100, echo_date: '2025-12-31' });
  await save(entry2, c.id, 'labs', { lb_item: 'bnp', lb_value: 2000 });
  await patient(t, entry2, { name: '陈志强' });
  patientC = c.id;

  const stranger = await hospital(t);
  await project(t, stranger.admin);
  strangerOwner = stranger.admin.token;
  await publishCrf(t, strangerOwner, {
    missingCodes: DEFAULT_MISSING_CODES,
    categories: [
      {
        key: 'x',
        title: '其他',
        forms: [{ key: 'echo', title: '其他', fields: [{ key: 'other_secret', label: '秘密', type: 'integer' }] }],
      },
    ],
  });
});
afterAll(async () => {
  await t?.close();
});

const lvefBelow40 = { kind: 'field', formKey: 'echo', fieldKey: 'lvef', op: 'lt', value: 40 };
const bnpRowAbove1000 = {
  kind: 'rows',
  formKey: 'labs',
  conditions: [
    { fieldKey: 'lb_item', op: 'eq', value: 'bnp' },
    { fieldKey: 'lb_value', op: 'gt', value: 1000 },
  ],
};

describe('POST retrieval/count', () => {
  it('should count the patients of every center for a statistician, a row group on one row', async () => {
    expect(await counted(stat, all(lvefBelow40))).toEqual({ count: 2, total: 4 });
    expect(await counted(stat, all(bnpRowAbove1000))).toEqual({ count: 2, total: 4 });
    // the same two conditions on the form outside a row group may hold on different rows (李秀英 too)
    const loose = all(
      { kind: 'field', formKey: 'labs', fieldKey: 'lb_item', op: 'eq', value: 'bnp' },
      { kind: 'field', formKey: 'labs', fieldKey: 'lb_value', op: 'gt', value: 1000 },
    );
    expect(await counted(stat, loose)).toEqual({ count: 3, total: 4 });
    expect(
      await counted(stat, {
        version: 1,
        root: { kind: 'group', op: 'and', not: true, items: [lvefBelow40] },
      }),
    ).toEqual({ count: 2, total: 4 });
    expect(await counted(stat, all({ kind: 'field', formKey: 'echo', fieldKey: 'lvef', op: 'empty' }))).toEqual({
      count: 1,
      total: 4,
    });
  });

  it("should never count another center's patient for a center-scoped member", async () => {
    expect(await counted(lead1, all(lvefBelow40))).toEqual({ count: 1, total: 2 });
    const inC2 = { kind: 'patient', attr: 'center', op: 'in', value: [c2] };
    expect(await counted(lead1, all(inC2))).toEqual({ count: 0, total: 2 });
    expect(await counted(stat, all(inC2))).toEqual({ count: 2, total: 4 });
    expect(
      await counted(lead1, { version: 1, root: { kind: 'group', op: 'or', items: [inC2, { ...inC2, op: 'notIn' }] } }),
    ).toEqual({ count: 2, total: 2 });
    expect(c1).not.toBe(c2);
  });

  it("should refuse a field key that is not the project's, the same for another hospital's and for none", async () => {
    const unknown = async (fieldKey: string) => {
      const res = await count(stat, all({ kind: 'field', formKey: 'echo', fieldKey, op: 'notEmpty' }));
      expect(res.statusCode, res.body).toBe(400);
      return res.json<Body>();
    };
    const foreign = await unknown('other_secret');
    const none = await unknown('no_such_field');
    expect(foreign.message).toBe('字段「other_secret」不存在');
    expect(foreign.issues).toEqual([{ path: 'cohort.root.items.0.fieldKey', message: '字段「other_secret」不存在' }]);
    expect(none.message).toBe('字段「no_such_field」不存在');
  });

  it('should refuse option codes the field does not have, SQL-like or not, without reaching the database', async () => {
    for (const value of ["' or 1=1 --", '%', "'); drop table patients; --"]) {
      const byCode = all({ kind: 'field', formKey: 'labs', fieldKey: 'lb_item', op: 'in', value: [value] });
      const res = await count(stat, byCode);
      // an unknown option code is refused by the check; nothing reaches SQL that could fail
      expect(res.statusCode, res.body).toBe(400);
    }
    expect(await counted(stat, all(lvefBelow40))).toEqual({ count: 2, total: 4 });
  });

  it('should refuse a body the contract refuses, and a member without retrieval.query', async () => {
    let deep: unknown = lvefBelow40;
    for (let i = 0; i < 6; i++) deep = { kind: 'group', op: 'and', items: [deep] };
    const tooDeep = await count(stat, { version: 1, root: deep });
    expect(tooDeep.statusCode).toBe(400);
    expect(tooDeep.json<Body>().message).toContain('条件组最多嵌套5层');
    expect((await count(stat, { version: 2, root: { kind: 'group', op: 'and', items: [] } })).statusCode).toBe(400);
    expect((await count(entry1, all(lvefBelow40))).statusCode).toBe(403);
  });
});

describe('saved queries (retrieval/query)', () => {
  const create = (token: string, payload: Record<string, unknown>) =>
    t.api({ method: 'POST', url: '/retrieval/query', token, payload });
  const list = async (token: string) => {
    const res = await t.api({ method: 'GET', url: '/retrieval/query/list', token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Body<SavedQueryVO[]>>().data;
  };

  it("should keep a private query its owner's and show a shared one to the project, editable by its owner only", async () => {
    const mine = await create(stat, { name: '低射血分数', cohort: all(lvefBelow40) });
    expect(mine.statusCode, mine.body).toBe(200);
    const privateQuery = mine.json<Body<SavedQueryVO>>().data;
    expect(privateQuery).toMatchObject({ name: '低射血分数', shared: false, mine: true, rowVersion: 1 });
    const shared = (
      await create(stat, { name: 'BNP 升高', description: ' 心衰随访 ', shared: true, cohort: all(bnpRowAbove1000) })
    ).json<Body<SavedQueryVO>>().data;
    expect(shared.description).toBe('心衰随访');

    expect((await list(stat)).map((q) => q.name).sort()).toEqual(['BNP 升高', '低射血分数']);
    const seen = await list(lead1);
    expect(seen.map((q) => [q.name, q.mine])).toEqual([['BNP 升高', false]]);
    const detail = (id: string, token: string) =>
      t.api({ method: 'GET', url: `/retrieval/query/detail?id=${id}`, token });
    expect((await detail(privateQuery.id, lead1)).statusCode).toBe(404);
    expect((await detail(privateQuery.id, strangerOwner)).statusCode).toBe(404);
    expect((await detail(shared.id, lead1)).json<Body<SavedQueryVO>>().data.cohort).toEqual(all(bnpRowAbove1000));

    const update = (token: string, body: Record<string, unknown>) =>
      t.api({ method: 'PUT', url: '/retrieval/query', token, payload: body });
    const change = {
      id: shared.id,
      rowVersion: 1,
      name: 'BNP 升高（>1000）',
      shared: true,
      cohort: all(bnpRowAbove1000),
    };
    expect((await update(lead1, change)).statusCode).toBe(403);
    expect(
      (await t.api({ method: 'POST', url: '/retrieval/query/delete', token: lead1, payload: { id: shared.id } }))
        .statusCode,
    ).toBe(403);
    const updated = await update(stat, change);
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json<Body<SavedQueryVO>>().data).toMatchObject({ name: 'BNP 升高（>1000）', rowVersion: 2 });
    const stale = await update(stat, { ...change, name: '再改' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json<Body>().message).toBe('该检索已被修改，请刷新后重试');

    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'retrieval_query.update'), eq(auditEvents.entityId, shared.id)));
    expect(event?.oldValue).toMatchObject({ name: 'BNP 升高', shared: true });
    expect(event?.newValue).toMatchObject({ name: 'BNP 升高（>1000）' });

    const removed = await t.api({
      method: 'POST',
      url: '/retrieval/query/delete',
      token: stat,
      payload: { id: privateQuery.id },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await list(stat)).map((q) => q.name)).toEqual(['BNP 升高（>1000）']);
    expect((await detail(privateQuery.id, stat)).statusCode).toBe(404);
    const deletions = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'retrieval_query.delete'), eq(auditEvents.entityId, privateQuery.id)));
    expect(deletions).toHaveLength(1);
  });

  it('should refuse a name the owner already uses (any case) and a cohort that does not fit the forms', async () => {
    expect((await create(stat, { name: 'Cohort A', cohort: all(lvefBelow40) })).statusCode).toBe(200);
    const again = await create(stat, { name: 'cohort a', cohort: all(lvefBelow40) });
    expect(again.statusCode).toBe(409);
    expect(again.json<Body>().message).toBe('已有名为「cohort a」的检索');
    // another member may use the same name
    expect((await create(lead1, { name: 'Cohort A', cohort: all(lvefBelow40) })).statusCode).toBe(200);
    const bad = await create(stat, {
      name: '坏的',
      cohort: all({ kind: 'field', formKey: 'echo', fieldKey: 'nope', op: 'empty' }),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<Body>().issues).toEqual([{ path: 'cohort.root.items.0.fieldKey', message: '字段「nope」不存在' }]);
    expect((await create(stat, { name: ' ', cohort: all() })).statusCode).toBe(400);
    expect((await create(entry1, { name: '无权限', cohort: all() })).statusCode).toBe(403);
  });
});

describe('POST retrieval/rows', () => {
  type Page = { records: CohortRowVO[]; total: number; current: number; size: number };
  const rows = async (token: string, body: Record<string, unknown>) => {
    const res = await t.api({ method: 'POST', url: '/retrieval/rows', token, payload: body });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Body<Page>>().data;
  };

  it("should page the cohort in the caller's scope, masked without patient.pii", async () => {
    const first = await rows(stat, { cohort: all(lvefBelow40), size: 1 });
    expect(first.total).toBe(2);
    expect(first.records).toHaveLength(1);
    expect(first.records[0]).toMatchObject({ masked: true });
    expect(first.records[0]?.name).not.toBe('王建国');
    const second = await rows(stat, { cohort: all(lvefBelow40), size: 1, current: 2 });
    expect(second.records[0]?.id).not.toBe(first.records[0]?.id);
    const byCenter = await rows(lead1, { cohort: all(lvefBelow40) });
    expect(byCenter.total).toBe(1);
    expect(byCenter.records.map((r) => r.centerName)).toHaveLength(1);
  });

  it('should show names to a member with patient.pii and audit that read with the patients shown', async () => {
    const page = await rows(owner, { cohort: all(lvefBelow40), sort: 'patientNo', order: 'desc' });
    expect(page.records.map((r) => r.name)).toEqual(['刘淑珍', '王建国']);
    expect(page.records.every((r) => !r.masked)).toBe(true);
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'patient.pii_read'));
    const shown = page.records.map((r) => r.id).sort();
    expect(
      events.some(
        (e) =>
          JSON.stringify(((e.newValue as { patientIds: string[] }).patientIds ?? []).sort()) === JSON.stringify(shown),
      ),
    ).toBe(true);
  });
});

describe('POST retrieval/rows: chosen CRF columns', () => {
  type Page = { records: CohortRowVO[]; total: number; current: number; size: number };
  const post = (token: string, body: Record<string, unknown>) =>
    t.api({ method: 'POST', url: '/retrieval/rows', token, payload: { cohort: all(), ...body } });
  const rows = async (token: string, body: Record<string, unknown>) => {
    const res = await post(token, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Body<Page>>().data;
  };
  const col = (field: string, form = 'echo') => ({ form, field });
  const byName = (page: Page) => new Map(page.records.map((r) => [r.name, r]));

  it("should carry each patient's values of the chosen fields, checkbox codes as a list, no record as null", async () => {
    const page = await rows(owner, { columns: [col('lvef'), col('echo_date'), col('sx'), col('addr'), col('lvef')] });
    expect(page.total).toBe(4);
    const named = byName(page);
    expect(named.get('王建国')?.values).toEqual({
      'echo.lvef': 35,
      'echo.echo_date': '2026-03-01',
      'echo.sx': ['dyspnea', 'edema'],
      'echo.addr': '北京市东城区',
    });
    expect(named.get('李秀英')?.values).toEqual({
      'echo.lvef': 55,
      'echo.echo_date': '2026-01-15',
      'echo.sx': null,
      'echo.addr': null,
    });
    expect(named.get('陈志强')?.values).toEqual({
      'echo.lvef': null,
      'echo.echo_date': null,
      'echo.sx': null,
      'echo.addr': null,
    });
    expect(page.records.every((r) => r.withheld.length === 0)).toBe(true);
    // without columns: the patient columns only
    expect((await rows(owner, {})).records[0]?.values).toEqual({});
  });

  it('should sort by a numeric column as numbers (9 before 10) and a date column as dates, blanks last', async () => {
    const order = async (sort: string, dir: 'asc' | 'desc') =>
      (await rows(owner, { columns: [col('score')], sort, order: dir })).records.map((r) => r.values['echo.score']);
    expect(await order('echo.score', 'asc')).toEqual([9, 10, 100, null]);
    expect(await order('echo.score', 'desc')).toEqual([100, 10, 9, null]);
    const byDate = await rows(owner, { columns: [col('echo_date')], sort: 'echo.echo_date', order: 'asc' });
    expect(byDate.records.map((r) => r.name)).toEqual(['刘淑珍', '李秀英', '王建国', '陈志强']);
    const paged = await rows(owner, { columns: [col('score')], sort: 'echo.score', size: 2, current: 2 });
    expect(paged.records.map((r) => r.values['echo.score'])).toEqual([100, null]);
  });

  it('should withhold a PHI column without patient.pii and refuse to sort by it, and show it with', async () => {
    const page = await rows(stat, { columns: [col('addr'), col('lvef')] });
    const wang = page.records.find((r) => r.values['echo.lvef'] === 35);
    expect(wang?.masked).toBe(true);
    expect(wang?.values).toEqual({ 'echo.addr': null, 'echo.lvef': 35 });
    expect(wang?.withheld).toEqual(['echo.addr']);
    expect(JSON.stringify(page)).not.toContain('北京市东城区');
    const sorted = await post(stat, { columns: [col('addr')], sort: 'echo.addr' });
    expect(sorted.statusCode).toBe(403);
    expect(sorted.json<Body>().message).toBe('没有查看患者身份信息的权限，不能按「住址」排序');
    const shown = await rows(owner, { columns: [col('addr')], sort: 'echo.addr' });
    expect(shown.records[0]?.values['echo.addr']).toBe('北京市东城区');
  });

  it("should refuse a key that is not the project's with the cohort check's words, another hospital's alike", async () => {
    const refused = async (body: Record<string, unknown>) => {
      const res = await post(stat, body);
      expect(res.statusCode, res.body).toBe(400);
      return res.json<Body>();
    };
    const foreign = await refused({ columns: [col('lvef'), col('other_secret')] });
    expect(foreign.message).toBe('字段「other_secret」不存在');
    expect(foreign.issues).toEqual([{ path: 'columns.1.field', message: '字段「other_secret」不存在' }]);
    expect((await refused({ columns: [col('no_such_field')] })).message).toBe('字段「no_such_field」不存在');
    expect((await refused({ columns: [col('lvef', 'x')] })).message).toBe('表单「x」不存在');
    const bySort = await refused({ sort: 'echo.other_secret' });
    expect(bySort.issues).toEqual([{ path: 'sort', message: '字段「other_secret」不存在' }]);
    expect((await refused({ sort: 'name' })).message).toBe('排序字段不正确');
  });

  it('should refuse SQL-like keys as unknown keys, nothing of them reaching the database', async () => {
    for (const key of ["lvef'); drop table patients; --", 'lvef" desc, (select 1)--', "lvef' || '"]) {
      const res = await post(stat, { columns: [col(key)] });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<Body>().message).toBe(`字段「${key}」不存在`);
      const sorted = await post(stat, { sort: `echo.${key}` });
      expect(sorted.statusCode, sorted.body).toBe(400);
    }
    expect((await post(stat, { sort: 'echo.lvef; select pg_sleep(10)' })).statusCode).toBe(400);
    expect(await counted(stat, all(lvefBelow40))).toEqual({ count: 2, total: 4 });
  });

  it('should refuse a field of a repeating form, a table and its column, a file field, and more than 20 columns', async () => {
    const message = async (body: Record<string, unknown>) => {
      const res = await post(stat, body);
      expect(res.statusCode, res.body).toBe(400);
      return res.json<Body>().message;
    };
    expect(await message({ columns: [col('lb_value', 'labs')] })).toBe(
      '「结果」属于可重复表单「化验」，不能作为显示列',
    );
    expect(await message({ columns: [col('meds')] })).toBe('「用药」是表格字段，不能作为显示列');
    expect(await message({ columns: [col('med_name')] })).toBe('「药名」是表格「用药」的列，不能作为显示列');
    expect(await message({ columns: [col('img')] })).toBe('「图像」是文件/图片字段，不能作为显示列');
    expect(await message({ columns: Array.from({ length: 21 }, () => col('lvef')) })).toContain('最多选择20个显示列');
  });

  it('should sort a value not of its type last and show it as stored, never failing', async () => {
    // a value the form would refuse, as an old import or a changed field type may have left it
    await t.db
      .update(formRecords)
      .set({ data: sql`${formRecords.data} || '{"score": "abc", "echo_date": "2026-02-30"}'::jsonb` })
      .where(and(eq(formRecords.patientId, patientC), eq(formRecords.formKey, 'echo')));
    const page = await rows(owner, { columns: [col('score')], sort: 'echo.score', order: 'desc' });
    expect(page.records.map((r) => r.values['echo.score'])).toEqual([10, 9, 'abc', null]);
    const byDate = await rows(owner, { columns: [col('echo_date')], sort: 'echo.echo_date' });
    expect(byDate.records.map((r) => r.values['echo.echo_date'])).toEqual([
      '2026-01-15',
      '2026-03-01',
      '2026-02-30',
      null,
    ]);
  });
});
