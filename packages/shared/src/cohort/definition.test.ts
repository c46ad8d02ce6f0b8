import { describe, expect, it } from 'vitest';
import { cohortDefinition, COHORT_LIMITS, type CohortGroup, type CohortItem } from './definition';

const CENTER = '00000000-0000-4000-8000-0000000000c1';

function parse(input: unknown) {
  const result = cohortDefinition.safeParse(input);
  return {
    ok: result.success,
    issues: result.success ? [] : result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
  };
}

const def = (...items: unknown[]) => ({ version: 1, root: { kind: 'group', op: 'and', items } });
const field = (extra: Record<string, unknown>) => ({ kind: 'field', formKey: 'base', fieldKey: 'age', ...extra });

/** A group nested `levels` deep (the root being level 1), a condition at the bottom. */
function nested(levels: number): CohortGroup {
  let group: CohortGroup = { kind: 'group', op: 'and', items: [{ kind: 'followup', status: 'due' }] };
  for (let i = 1; i < levels; i++) group = { kind: 'group', op: 'or', items: [group] };
  return group;
}

describe('cohortDefinition', () => {
  it('accepts every kind of item and keeps what was sent', () => {
    const input = def(
      { kind: 'patient', attr: 'center', op: 'in', value: [CENTER] },
      field({ op: 'between', value: [18, 80] }),
      {
        kind: 'field',
        formKey: 'base',
        fieldKey: 'visit',
        op: 'withinDaysOf',
        other: { formKey: 'base', fieldKey: 'admit' },
        days: 30,
      },
      { kind: 'rows', formKey: 'labs', conditions: [{ fieldKey: 'analyte', op: 'eq', value: 'NT-proBNP' }] },
      {
        kind: 'rows',
        formKey: 'lab',
        groupKey: 'lb_rows',
        conditions: [{ fieldKey: 'lb_value', op: 'gt', value: 1000 }],
      },
      { kind: 'followup', status: 'overdue' },
      { kind: 'group', op: 'or', not: true, items: [field({ op: 'empty' })] },
    );
    const result = cohortDefinition.safeParse(input);
    expect(result.success).toBe(true);
    expect(result.data).toEqual(input);
  });

  it("refuses a row group's blank or over-long group key", () => {
    expect(parse(def({ kind: 'rows', formKey: 'lab', groupKey: '', conditions: [] })).issues).toEqual([
      { path: 'root.items.0.groupKey', message: '请选择表格' },
    ]);
    expect(parse(def({ kind: 'rows', formKey: 'lab', groupKey: 'g'.repeat(65), conditions: [] })).issues).toEqual([
      { path: 'root.items.0.groupKey', message: '表格不存在' },
    ]);
  });

  it('accepts an empty root (every patient) and refuses another version', () => {
    expect(parse(def()).ok).toBe(true);
    expect(parse({ version: 2, root: { kind: 'group', op: 'and', items: [] } }).issues).toEqual([
      { path: 'version', message: '条件版本不正确' },
    ]);
  });

  it(`nests groups ${COHORT_LIMITS.depth} levels deep, not one more`, () => {
    expect(parse({ version: 1, root: nested(5) }).ok).toBe(true);
    const six = parse({ version: 1, root: nested(6) });
    expect(six.ok).toBe(false);
    expect(six.issues.map((i) => i.message)).toContain('条件组最多嵌套5层');
  });

  it('refuses a body nested thousands of levels deep with an issue, without recursing into it', () => {
    let deep: unknown = { kind: 'followup', status: 'due' };
    for (let i = 0; i < 20000; i++) deep = { kind: 'group', op: 'and', items: [deep] };
    const result = parse({ version: 1, root: deep });
    expect(result.ok).toBe(false);
    expect(result.issues.map((i) => i.message)).toContain('条件组最多嵌套5层');
  });

  it(`counts conditions in all, a row group's each: ${COHORT_LIMITS.conditions} pass, one more does not`, () => {
    const cond: CohortItem = { kind: 'followup', status: 'done' };
    const rows = (n: number) => ({
      kind: 'rows',
      formKey: 'labs',
      conditions: Array.from({ length: n }, () => ({ fieldKey: 'value', op: 'notEmpty' })),
    });
    const sub = (n: number) => ({ kind: 'group', op: 'or', items: Array.from({ length: n }, () => cond) });
    expect(parse(def(sub(50), rows(50))).ok).toBe(true);
    expect(parse(def(sub(50), rows(50), cond)).issues).toEqual([{ path: 'root', message: '条件总数不能超过100个' }]);
  });

  it('bounds lists, texts and days', () => {
    const codes = Array.from({ length: 501 }, (_, i) => `c${i}`);
    expect(parse(def(field({ op: 'in', value: codes }))).issues).toEqual([
      { path: 'root.items.0.value', message: '最多选择500项' },
    ]);
    expect(parse(def(field({ op: 'in', value: codes.slice(0, 500) }))).ok).toBe(true);
    expect(parse(def(field({ op: 'contains', value: 'x'.repeat(201) }))).issues).toEqual([
      { path: 'root.items.0.value', message: '比较值不能超过200个字符' },
    ]);
    expect(parse(def(field({ op: 'in', value: ['a', 'x'.repeat(201)] }))).issues).toEqual([
      { path: 'root.items.0.value.1', message: '比较值不能超过200个字符' },
    ]);
    const within = (days: unknown) =>
      parse(def(field({ op: 'withinDaysOf', other: { formKey: 'base', fieldKey: 'visit' }, days })));
    expect(within(36500).ok).toBe(true);
    expect(within(36501).issues).toEqual([{ path: 'root.items.0.days', message: '天数不能超过36500' }]);
    expect(within(1.5).issues).toEqual([{ path: 'root.items.0.days', message: '天数须为整数' }]);
    expect(within(-1).issues).toEqual([{ path: 'root.items.0.days', message: '天数不能为负数' }]);
  });

  it("checks each operator's operand shape in Chinese", () => {
    const message = (extra: Record<string, unknown>) => parse(def(field(extra))).issues.map((i) => i.message);
    expect(message({ op: 'between', value: 3 })).toEqual(['「介于」须填写下限和上限']);
    expect(message({ op: 'between', value: [1, 'a'] })).toEqual(['比较值不正确']);
    expect(message({ op: 'empty', value: 3 })).toEqual(['「为空」不需要填写比较值']);
    expect(message({ op: 'eq' })).toEqual(['「等于」须填写一个比较值']);
    expect(message({ op: 'in', value: 'a' })).toEqual(['「属于」须选择至少一项']);
    expect(message({ op: 'withinDaysOf' })).toEqual(['「与另一日期相差不超过」须选择另一个日期字段并填写天数']);
    expect(message({ op: 'eq', value: 1, days: 3 })).toEqual(['「等于」不能选择另一个日期字段']);
    expect(message({ op: 'like', value: 1 })).toEqual(['请选择比较方式']);
    expect(message({ op: 'eq', value: Number.NaN })).toEqual(['比较值不正确']);
    expect(message({ op: 'eq', value: { a: 1 } })).toEqual(['比较值不正确']);
  });

  it('checks patient conditions whole: operator, ids, codes, dates, ages', () => {
    const message = (c: Record<string, unknown>) =>
      parse(def({ kind: 'patient', ...c })).issues.map((i) => `${i.path} ${i.message}`);
    expect(message({ attr: 'center', op: 'gt', value: 3 })).toEqual(['root.items.0.op 「中心」不能使用「大于」条件']);
    expect(message({ attr: 'center', op: 'in', value: ['c1'] })).toEqual(['root.items.0.value 「中心」须选择1到500项']);
    expect(message({ attr: 'center', op: 'in', value: [CENTER.toUpperCase()] })).toEqual([]);
    expect(message({ attr: 'status', op: 'in', value: ['alive'] })).toEqual(['root.items.0.value 「患者状态」不正确']);
    expect(message({ attr: 'sex', op: 'in', value: ['1', '2'] })).toEqual([]);
    expect(message({ attr: 'sex', op: 'in', value: ['M'] })).toEqual(['root.items.0.value 「性别」不正确']);
    expect(message({ attr: 'enrolDate', op: 'before', value: '2024-02-30' })).toEqual([
      'root.items.0.value 「入组日期」的比较值须为有效日期（YYYY-MM-DD）',
    ]);
    expect(message({ attr: 'enrolDate', op: 'between', value: ['2024-03-01', '2024-02-01'] })).toEqual([
      'root.items.0.value 「入组日期」的下限不能大于上限',
    ]);
    expect(message({ attr: 'ageAtEnrol', op: 'gte', value: 17.5 })).toEqual([
      'root.items.0.value 「入组年龄」的比较值须为0到200之间的整数（周岁）',
    ]);
    expect(message({ attr: 'ageAtEnrol', op: 'empty' })).toEqual([]);
    expect(message({ attr: 'status', op: 'empty' })).toEqual(['root.items.0.op 「患者状态」不能使用「为空」条件']);
    expect(message({ attr: 'age', op: 'empty' })).toEqual(['root.items.0.attr 请选择患者信息']);
  });

  it('refuses an unknown kind (a randomisation arm is for later) and a bad follow-up status', () => {
    expect(parse(def({ kind: 'random', arm: 'A' })).issues).toEqual([
      { path: 'root.items.0.kind', message: '条件类型不正确' },
    ]);
    expect(parse(def({ kind: 'followup', status: 'late' })).issues).toEqual([
      { path: 'root.items.0.status', message: '请选择随访情况' },
    ]);
    expect(parse(def({ kind: 'group', op: 'xor', items: [] })).issues).toEqual([
      { path: 'root.items.0.op', message: '请选择条件组的组合方式' },
    ]);
  });
});
