import { describe, expect, it } from 'vitest';
import type { Definition, FieldDefinition } from '../forms/definition';
import { checkCohort, cohortForms } from './check';
import type { CohortDefinition, CohortItem, CohortRowCondition } from './definition';

const f = (key: string, type: FieldDefinition['type'], extra: Partial<FieldDefinition> = {}): FieldDefinition => ({
  key,
  label: `标签${key}`,
  type,
  ...extra,
});
const options = (...codes: string[]) => codes.map((code) => ({ code, label: code }));

const TEST_DEFINITION: Definition = {
  missingCodes: [],
  categories: [
    {
      key: 'cat',
      title: '分类',
      forms: [
        {
          key: 'base',
          title: '基线',
          fields: [
            f('age', 'integer'),
            f('weight', 'decimal'),
            f('bmi', 'calc', { formula: '[weight]' }),
            f('visit', 'date'),
            f('admit', 'datetime'),
            f('onset', 'partialDate'),
            f('name', 'text'),
            f('note', 'textarea', { phi: true }),
            f('pname', 'text', { binding: 'patient.name' }),
            f('sex', 'radio', { binding: 'patient.gender', options: options('male', 'female') }),
            f('smoke', 'radio', { options: options('1', '2', '3') }),
            f('ethnic', 'dict', { dictCode: 'ethnic' }),
            f('hf', 'yesno'),
            f('sym', 'checkbox', { options: options('a', 'b', 'c') }),
            f('photo', 'file'),
            f('rich', 'richtext'),
            f('meds', 'group', {
              fields: [
                { key: 'drug', label: '药物', type: 'text' },
                { key: 'dose', label: '剂量', type: 'decimal' },
                { key: 'route', label: '途径', type: 'radio', options: options('po', 'iv') },
                { key: 'started', label: '开始', type: 'date' },
              ],
            }),
            f('sec', 'section'),
          ],
        },
        {
          key: 'labs',
          title: '化验',
          repeating: true,
          fields: [f('analyte', 'text'), f('value', 'decimal'), f('drawn', 'date')],
        },
      ],
    },
  ],
};
const FORMS = cohortForms(TEST_DEFINITION);

const def = (...items: CohortItem[]): CohortDefinition => ({ version: 1, root: { kind: 'group', op: 'and', items } });
const check = (...items: CohortItem[]) => checkCohort(def(...items), FORMS);
const field = (fieldKey: string, rest: Partial<CohortItem>, formKey = 'base') =>
  ({ kind: 'field', formKey, fieldKey, ...rest }) as CohortItem;

describe('cohortForms', () => {
  it("lists every form's own fields with yes/no, radio and checkbox codes, a group's columns under the group", () => {
    const base = FORMS.find((x) => x.key === 'base');
    expect(base?.repeating).toBe(false);
    expect(FORMS.find((x) => x.key === 'labs')?.repeating).toBe(true);
    expect(base?.fields.find((x) => x.key === 'hf')?.options).toEqual(['1', '0']);
    expect(base?.fields.find((x) => x.key === 'smoke')?.options).toEqual(['1', '2', '3']);
    expect(base?.fields.find((x) => x.key === 'ethnic')?.options).toBeUndefined();
    expect(base?.fields.find((x) => x.key === 'ethnic')?.dictCode).toBe('ethnic');
    expect(base?.fields.find((x) => x.key === 'hf')?.optionLabels).toEqual(['是', '否']);
    expect(base?.fields.some((x) => x.key === 'drug')).toBe(false);
    expect(base?.fields.find((x) => x.key === 'meds')?.columns).toEqual([
      { key: 'drug', label: '药物', type: 'text' },
      { key: 'dose', label: '剂量', type: 'decimal' },
      { key: 'route', label: '途径', type: 'radio', options: ['po', 'iv'], optionLabels: ['po', 'iv'] },
      { key: 'started', label: '开始', type: 'date' },
    ]);
  });

  it('marks a field PHI when flagged or bound to an identity attribute of the patient (not the gender)', () => {
    const phi = (key: string) => FORMS.find((x) => x.key === 'base')?.fields.find((x) => x.key === key)?.phi;
    expect(phi('note')).toBe(true);
    expect(phi('pname')).toBe(true);
    expect(phi('sex')).toBeUndefined();
    expect(phi('name')).toBeUndefined();
  });
});

describe('checkCohort', () => {
  it('passes a definition that uses every searchable type with a fitting operator', () => {
    expect(
      check(
        field('age', { op: 'between', value: [18, 80] }),
        field('weight', { op: 'gt', value: 60.5 }),
        field('bmi', { op: 'empty' }),
        field('visit', { op: 'withinDaysOf', other: { formKey: 'labs', fieldKey: 'drawn' }, days: 30 }),
        field('admit', { op: 'before', value: '2024-01-01' }),
        field('onset', { op: 'eq', value: '2020-03' }),
        field('name', { op: 'contains', value: '张' }),
        field('note', { op: 'eq', value: 'x' }),
        field('smoke', { op: 'in', value: ['1', '2'] }),
        field('ethnic', { op: 'eq', value: 'HAN' }),
        field('hf', { op: 'notIn', value: ['0'] }),
        field('sym', { op: 'allOf', value: ['a', 'c'] }),
        { kind: 'rows', formKey: 'labs', conditions: [{ fieldKey: 'value', op: 'gt', value: 1000 }] },
        { kind: 'group', op: 'or', items: [{ kind: 'followup', status: 'lost' }] },
      ),
    ).toEqual([]);
  });

  it('names an unknown form or field by its key, the same way whether it exists elsewhere or not', () => {
    expect(check(field('age', { op: 'empty' }, 'nowhere'))).toEqual([
      { path: 'root.items.0.formKey', message: '表单「nowhere」不存在' },
    ]);
    expect(check(field('nothing', { op: 'empty' }))).toEqual([
      { path: 'root.items.0.fieldKey', message: '字段「nothing」不存在' },
    ]);
    // 'analyte' is a field of another form: not this one's
    expect(check(field('analyte', { op: 'empty' }))).toEqual([
      { path: 'root.items.0.fieldKey', message: '字段「analyte」不存在' },
    ]);
    // a group's column is searched only inside a row group of its group
    expect(check(field('drug', { op: 'empty' }))).toEqual([
      { path: 'root.items.0.fieldKey', message: '「药物」是表格「标签meds」的列，须在“同一行”条件中检索' },
    ]);
  });

  it('refuses fields that cannot be searched', () => {
    expect(check(field('photo', { op: 'empty' }))[0]?.message).toBe('「标签photo」是文件/图片字段，不能作为检索条件');
    expect(check(field('rich', { op: 'empty' }))[0]?.message).toBe('「标签rich」是富文本字段，不能作为检索条件');
    expect(check(field('meds', { op: 'empty' }))[0]?.message).toBe(
      '「标签meds」是重复组（表格）字段，不能作为检索条件',
    );
    expect(check(field('sec', { op: 'empty' }))[0]?.message).toBe('「标签sec」是分节标题字段，不能作为检索条件');
  });

  it("refuses an operator that does not fit the field's type", () => {
    expect(check(field('name', { op: 'gt', value: 3 }))).toEqual([
      { path: 'root.items.0.op', message: '「标签name」不能使用「大于」条件' },
    ]);
    expect(check(field('sym', { op: 'in', value: ['a'] }))[0]?.message).toBe('「标签sym」不能使用「属于」条件');
    expect(
      check(field('onset', { op: 'withinDaysOf', other: { formKey: 'base', fieldKey: 'visit' }, days: 1 }))[0]?.message,
    ).toBe('「标签onset」不能使用「与另一日期相差不超过」条件');
    expect(check(field('age', { op: 'contains', value: '1' }))[0]?.message).toBe('「标签age」不能使用「包含」条件');
  });

  it('refuses a value of the wrong kind for the field', () => {
    const message = (key: string, rest: Partial<CohortItem>) => check(field(key, rest))[0]?.message;
    expect(message('age', { op: 'eq', value: '12' })).toBe('「标签age」的比较值须为数字');
    expect(message('visit', { op: 'eq', value: '2024-02-30' })).toBe('「标签visit」的比较值须为有效日期（YYYY-MM-DD）');
    expect(message('admit', { op: 'eq', value: '2024-02-01T10:00' })).toBe(
      '「标签admit」的比较值须为有效日期（YYYY-MM-DD）',
    );
    expect(message('onset', { op: 'eq', value: '2020-13' })).toBe(
      '「标签onset」的比较值须为有效日期（YYYY、YYYY-MM 或 YYYY-MM-DD）',
    );
    expect(message('onset', { op: 'before', value: '2020' })).toBe('「标签onset」的比较值须为有效日期（YYYY-MM-DD）');
    expect(message('age', { op: 'between', value: [80, 18] })).toBe('「标签age」的下限不能大于上限');
    expect(message('name', { op: 'eq', value: 5 })).toBe('「标签name」的比较值须为1到200个字符的文本');
    expect(message('name', { op: 'contains', value: '' })).toBe('「标签name」的比较值须为1到200个字符的文本');
  });

  it('refuses option codes the field does not have (a dict field takes any code)', () => {
    expect(check(field('smoke', { op: 'in', value: ['1', '9', '8', '9'] }))).toEqual([
      { path: 'root.items.0.value', message: '「标签smoke」没有编码为 9、8 的选项' },
    ]);
    expect(check(field('hf', { op: 'eq', value: '2' }))[0]?.message).toBe('「标签hf」没有编码为 2 的选项');
    expect(check(field('sym', { op: 'noneOf', value: ['d'] }))[0]?.message).toBe('「标签sym」没有编码为 d 的选项');
    expect(check(field('ethnic', { op: 'in', value: ['ANY', 'CODE'] }))).toEqual([]);
  });

  it('refuses a row group on a form that does not repeat, and checks its conditions on its form', () => {
    expect(check({ kind: 'rows', formKey: 'base', conditions: [{ fieldKey: 'age', op: 'gt', value: 1 }] })).toEqual([
      { path: 'root.items.0.formKey', message: '「基线」不是可重复表单，不能设置“同一条记录”的条件' },
    ]);
    expect(
      check({
        kind: 'rows',
        formKey: 'labs',
        conditions: [
          { fieldKey: 'value', op: 'gt', value: 1 },
          { fieldKey: 'age', op: 'gt', value: 1 },
        ],
      }),
    ).toEqual([{ path: 'root.items.0.conditions.1.fieldKey', message: '字段「age」不存在' }]);
    expect(check({ kind: 'rows', formKey: 'nowhere', conditions: [] })).toEqual([
      { path: 'root.items.0.formKey', message: '表单「nowhere」不存在' },
    ]);
  });

  it("a row group of a group field: on any form, its conditions on the group's columns, typed by the columns", () => {
    const meds = (...conditions: CohortRowCondition[]): CohortItem => ({
      kind: 'rows',
      formKey: 'base',
      groupKey: 'meds',
      conditions,
    });
    // a non-repeating form is fine: the rows are the table's
    expect(
      check(
        meds(
          { fieldKey: 'drug', op: 'contains', value: '沙坦' },
          { fieldKey: 'dose', op: 'between', value: [1, 2] },
          { fieldKey: 'route', op: 'in', value: ['po'] },
          { fieldKey: 'started', op: 'withinDaysOf', other: { formKey: 'base', fieldKey: 'visit' }, days: 3 },
        ),
        meds(),
      ),
    ).toEqual([]);
    expect(check(meds({ fieldKey: 'dose', op: 'contains', value: '1' }))).toEqual([
      { path: 'root.items.0.conditions.0.op', message: '「剂量」不能使用「包含」条件' },
    ]);
    expect(check(meds({ fieldKey: 'route', op: 'eq', value: 'im' }))).toEqual([
      { path: 'root.items.0.conditions.0.value', message: '「途径」没有编码为 im 的选项' },
    ]);
    // a form's own field is not a column
    expect(check(meds({ fieldKey: 'age', op: 'gt', value: 1 }))).toEqual([
      { path: 'root.items.0.conditions.0.fieldKey', message: '表格「标签meds」没有字段「age」' },
    ]);
    expect(check({ kind: 'rows', formKey: 'base', groupKey: 'age', conditions: [] })).toEqual([
      { path: 'root.items.0.groupKey', message: '「标签age」不是表格字段，不能设置“同一行”的条件' },
    ]);
    expect(check({ kind: 'rows', formKey: 'labs', groupKey: 'meds', conditions: [] })).toEqual([
      { path: 'root.items.0.groupKey', message: '字段「meds」不存在' },
    ]);
  });

  it('withinDaysOf inside a row group of a group may name a column of the same group; outside, a column is refused', () => {
    const started = (other: { formKey: string; fieldKey: string }): CohortItem => ({
      kind: 'rows',
      formKey: 'base',
      groupKey: 'meds',
      conditions: [{ fieldKey: 'started', op: 'withinDaysOf', other, days: 3 }],
    });
    expect(check(started({ formKey: 'labs', fieldKey: 'drawn' }))).toEqual([]);
    expect(check(started({ formKey: 'base', fieldKey: 'started' }))[0]?.message).toBe('「开始」不能与自身比较相差天数');
    expect(check(started({ formKey: 'base', fieldKey: 'dose' }))[0]?.message).toBe(
      '「剂量」不是日期字段，不能比较相差天数',
    );
    expect(
      check(field('visit', { op: 'withinDaysOf', other: { formKey: 'base', fieldKey: 'started' }, days: 3 })),
    ).toEqual([
      { path: 'root.items.0.other.fieldKey', message: '「开始」是表格「标签meds」的列，须在“同一行”条件中检索' },
    ]);
  });

  it("requires withinDaysOf's other field to be another date field that exists", () => {
    const within = (other: { formKey: string; fieldKey: string }) =>
      check(field('visit', { op: 'withinDaysOf', other, days: 7 }));
    expect(within({ formKey: 'base', fieldKey: 'admit' })).toEqual([]);
    expect(within({ formKey: 'base', fieldKey: 'onset' })).toEqual([
      { path: 'root.items.0.other.fieldKey', message: '「标签onset」不是日期字段，不能比较相差天数' },
    ]);
    expect(within({ formKey: 'base', fieldKey: 'age' })[0]?.message).toBe('「标签age」不是日期字段，不能比较相差天数');
    expect(within({ formKey: 'base', fieldKey: 'visit' })[0]?.message).toBe('「标签visit」不能与自身比较相差天数');
    expect(within({ formKey: 'gone', fieldKey: 'visit' })).toEqual([
      { path: 'root.items.0.other.formKey', message: '表单「gone」不存在' },
    ]);
    expect(within({ formKey: 'labs', fieldKey: 'nothing' })).toEqual([
      { path: 'root.items.0.other.fieldKey', message: '字段「nothing」不存在' },
    ]);
  });

  it('reports issues inside nested groups with their paths', () => {
    const issues = checkCohort(
      {
        version: 1,
        root: {
          kind: 'group',
          op: 'or',
          items: [
            { kind: 'patient', attr: 'sex', op: 'in', value: ['1'] },
            { kind: 'group', op: 'and', not: true, items: [field('x', { op: 'empty' })] },
          ],
        },
      },
      FORMS,
    );
    expect(issues).toEqual([{ path: 'root.items.1.items.0.fieldKey', message: '字段「x」不存在' }]);
  });
});
