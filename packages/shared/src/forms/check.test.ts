import { describe, expect, it } from 'vitest';
import { checkDefinition, checkFieldKey, structuralProblems } from './check';
import type { Definition, FieldDefinition } from './definition';
import { DEFAULT_MISSING_CODES } from './definition';

function definitionOf(fields: FieldDefinition[], more: FieldDefinition[] = []): Definition {
  return {
    missingCodes: DEFAULT_MISSING_CODES,
    categories: [
      {
        key: 'base',
        title: '基线',
        forms: [
          { key: 'demo', title: '人口学', fields },
          { key: 'lab', title: '实验室', fields: more },
        ],
      },
    ],
  };
}

const weight: FieldDefinition = { key: 'weight', label: '体重', type: 'decimal', unit: 'kg', precision: 1 };
const sex: FieldDefinition = {
  key: 'sex',
  label: '性别',
  type: 'radio',
  options: [
    { code: '1', label: '男' },
    { code: '2', label: '女' },
  ],
};

const messages = (d: Definition, opts?: Parameters<typeof checkDefinition>[1]) =>
  checkDefinition(d, opts).map((p) => p.message);

describe('checkDefinition', () => {
  it('should find nothing when the definition is sound', () => {
    const d = definitionOf(
      [
        sex,
        weight,
        { key: 'height', label: '身高', type: 'integer', min: 50, max: 250 },
        { key: 'bmi', label: 'BMI', type: 'calc', formula: '[weight] / ([height] / 100) ^ 2', precision: 1 },
        { key: 'preg', label: '妊娠', type: 'yesno', showIf: "[sex] = '2'", missingCodes: ['UNK'] },
        {
          key: 'meds',
          label: '用药',
          type: 'group',
          minRows: 0,
          maxRows: 5,
          fields: [
            { key: 'drug', label: '药物', type: 'text' },
            { key: 'dose', label: '剂量', type: 'decimal', showIf: "[drug] <> '' and [weight] > 0" },
          ],
        },
      ],
      [
        {
          key: 'hb',
          label: '血红蛋白',
          type: 'integer',
          rules: [{ expr: '[hb] < 250 or [sex] = 1', message: 'x', level: 'soft' }],
        },
      ],
    );
    expect(checkDefinition(d)).toEqual([]);
  });

  it('should report a duplicate key at the second field when two fields share it, group columns included', () => {
    const d = definitionOf([
      weight,
      { key: 'g', label: '组', type: 'group', fields: [{ ...weight, type: 'decimal', label: '体重2' }] },
    ]);
    expect(checkDefinition(d)).toEqual([
      {
        path: 'categories.0.forms.0.fields.1.fields.0.key',
        formKey: 'demo',
        fieldKey: 'weight',
        message: '变量名 weight 重复：已被表单「人口学」的字段「体重」使用',
        position: null,
      },
    ]);
  });

  it('should report keys already used by the parent project when a sub-project reuses them', () => {
    const parent = definitionOf([weight]);
    const own: Definition = {
      missingCodes: [],
      categories: [{ key: 'sub', title: '亚组', forms: [{ key: 'demo', title: '亚组表', fields: [weight] }] }],
    };
    expect(messages(own, { parent })).toEqual([
      '表单编码 demo 已被上级项目使用',
      '变量名 weight 重复：已被上级项目的表单「人口学」的字段「体重」使用',
    ]);
  });

  it('should let a sub-project refer to the parent fields', () => {
    const parent = definitionOf([sex]);
    const own: Definition = {
      missingCodes: [],
      categories: [
        {
          key: 'sub',
          title: '亚组',
          forms: [{ key: 'extra', title: '补充', fields: [{ ...weight, showIf: '[sex(2)] = 1' }] }],
        },
      ],
    };
    expect(checkDefinition(own, { parent })).toEqual([]);
  });

  it('should report duplicate category and form keys', () => {
    const d: Definition = {
      missingCodes: [],
      categories: [
        { key: 'a', title: 'A', forms: [{ key: 'f', title: 'F', fields: [] }] },
        { key: 'a', title: 'B', forms: [{ key: 'f', title: 'G', fields: [] }] },
      ],
    };
    expect(messages(d)).toEqual(['分类编码 a 重复', '表单编码 f 重复']);
  });

  it('should report a logic syntax error with its position at the showIf path', () => {
    const d = definitionOf([sex, { ...weight, showIf: "([sex] = '1'" }]);
    expect(checkDefinition(d)).toEqual([
      {
        path: 'categories.0.forms.0.fields.1.showIf',
        formKey: 'demo',
        fieldKey: 'weight',
        message: '「体重」(weight)的显示条件有误：第 13 个字符处缺少右括号',
        position: 12,
      },
    ]);
  });

  it('should report unknown references, unknown option codes and layout references with their positions', () => {
    const d = definitionOf([
      sex,
      { key: 'intro', label: '说明', type: 'description' },
      { ...weight, showIf: '[sex(3)] = 1 or [nope] > 1 or [intro] = 1 or [weight(1)] = 1' },
    ]);
    const problems = checkDefinition(d).map((p) => [p.message, p.position]);
    expect(problems).toEqual([
      ['「体重」(weight)的显示条件中 [sex(3)] 无效：没有编码为 3 的选项', 0],
      ['「体重」(weight)的显示条件引用了不存在的字段 [nope]', 16],
      ['「体重」(weight)的显示条件引用了不含数据的字段 [intro]', 30],
      ['「体重」(weight)的显示条件中 [weight(1)] 无效：该字段没有选项', 45],
      // A field shown on its own value could never settle.
      ['显示条件循环依赖：weight → weight', null],
    ]);
  });

  it('should refuse a reference to a group column from outside its group but allow it from a sibling', () => {
    const d = definitionOf([
      {
        key: 'meds',
        label: '用药',
        type: 'group',
        fields: [
          { key: 'drug', label: '药物', type: 'text' },
          { key: 'dose', label: '剂量', type: 'decimal', showIf: "[drug] <> ''" },
        ],
      },
      { ...weight, showIf: '[dose] > 1' },
    ]);
    expect(messages(d)).toEqual(['「体重」(weight)的显示条件引用了重复组「用药」的列 [dose]，只能在该组内引用']);
  });

  it('should report an unknown datediff unit at its position', () => {
    const d = definitionOf([
      { key: 'd', label: '日期', type: 'date' },
      { key: 'age', label: '年龄', type: 'calc', formula: "datediff([d], 'today', 'w')" },
    ]);
    expect(checkDefinition(d).map((p) => [p.message, p.position])).toEqual([
      ['「年龄」(age)的计算公式有误：函数 datediff 的时间单位「w」无效（可用 y、M、d、h、m、s）', 23],
    ]);
  });

  it('should check rule expressions at their own path', () => {
    const d = definitionOf([{ ...weight, rules: [{ expr: '[weight] >', message: '过大', level: 'hard' }] }]);
    expect(checkDefinition(d)[0]).toMatchObject({ path: 'categories.0.forms.0.fields.0.rules.0.expr', position: 10 });
  });

  it('should report a calculation cycle with its path', () => {
    const d = definitionOf([
      { key: 'a', label: 'A', type: 'calc', formula: '[b] + 1' },
      { key: 'b', label: 'B', type: 'calc', formula: '[c] * 2' },
      { key: 'c', label: 'C', type: 'calc', formula: '[a]' },
    ]);
    expect(messages(d)).toEqual(['计算公式循环引用：a → b → c → a']);
  });

  it('should report a show-if circle when fields decide each other', () => {
    const d = definitionOf([
      { key: 'a', label: 'A', type: 'text', showIf: "[b] = ''" },
      { key: 'b', label: 'B', type: 'text', showIf: "[a] = ''" },
    ]);
    expect(messages(d)).toEqual(['显示条件循环依赖：a → b → a']);
  });

  it('should require a formula for a calc and refuse required on it', () => {
    const d = definitionOf([{ key: 'a', label: 'A', type: 'calc', required: true }]);
    expect(messages(d)).toEqual(['「A」(a)是计算字段，不能设为必填', '「A」(a)缺少计算公式']);
  });

  it('should require options with unique codes for choice fields', () => {
    const d = definitionOf([
      { key: 'a', label: 'A', type: 'radio', options: [] },
      {
        key: 'b',
        label: 'B',
        type: 'checkbox',
        options: [
          { code: '1', label: 'x' },
          { code: '1', label: 'y' },
        ],
      },
    ]);
    expect(checkDefinition(d).map((p) => [p.path, p.message])).toEqual([
      ['categories.0.forms.0.fields.0.options', '「A」(a)至少需要一个选项'],
      ['categories.0.forms.0.fields.1.options.1.code', '「B」(b)的选项编码 1 重复'],
    ]);
  });

  it('should require a dictionary that exists for dict fields when the codes are known', () => {
    const d = definitionOf([
      { key: 'a', label: 'A', type: 'dict' },
      { key: 'b', label: 'B', type: 'dict', dictCode: 'blood' },
      { key: 'c', label: 'C', type: 'dict', dictCode: 'gender' },
    ]);
    expect(messages(d, { dictCodes: new Set(['gender']) })).toEqual([
      '「A」(a)须选择一个字典',
      '「B」(b)引用的字典 blood 不存在',
    ]);
  });

  it('should report bad ranges, regexes, precision, missing codes and row bounds', () => {
    const d = definitionOf([
      { key: 'a', label: 'A', type: 'integer', min: 10, max: 1, normalLow: 5, normalHigh: 2 },
      { key: 'b', label: 'B', type: 'text', pattern: { regex: '([a-z', message: 'm', level: 'hard' }, precision: 2 },
      { key: 'c', label: 'C', type: 'date', minDate: '2020-02-30', maxDate: 'today' },
      { key: 'd', label: 'D', type: 'date', minDate: '2021-01-01', maxDate: '2020-01-01', missingCodes: ['XX'] },
      { key: 'e', label: 'E', type: 'group', minRows: 3, maxRows: 1, fields: [] },
    ]);
    expect(messages(d)).toEqual([
      '「A」(a)的最小值不能大于最大值',
      '「A」(a)的正常值下限不能大于上限',
      '「B」(b)的正则表达式无效（缺少 ]）：([a-z',
      '「B」(b)只有小数或计算字段可以设置小数位数',
      '「C」(c)的最早日期 2020-02-30 不是有效日期（或 today）',
      '「D」(d)的最早日期不能晚于最晚日期',
      '「D」(d)的缺失值编码 XX 不在本数据库的缺失值列表中',
      '「E」(e)至少需要一列',
      '「E」(e)的最少行数不能大于最多行数',
    ]);
  });

  it('should refuse validation on sections and descriptions', () => {
    const d = definitionOf([
      {
        key: 's',
        label: '一般情况',
        type: 'section',
        required: true,
        rules: [{ expr: '1', message: 'm', level: 'hard' }],
      },
    ]);
    expect(messages(d)).toEqual(['「一般情况」(s)是分节标题，不能设置必填、校验规则']);
  });

  it('should never throw on odd but schema-valid input', () => {
    const d = definitionOf([{ key: 'a', label: 'A', type: 'calc', formula: '[a]' }]);
    expect(() => checkDefinition(d)).not.toThrow();
    expect(messages(d)).toContain('计算公式循环引用：a → a');
  });
});

describe('checkFieldKey', () => {
  const d = definitionOf([weight, sex], [{ key: 'hb', label: '血红蛋白', type: 'integer' }]);

  it('should refuse a used name with the message checkDefinition gives once the name is applied', () => {
    const problem = checkFieldKey(d, { formKey: 'lab', fieldKey: 'hb' }, 'sex');
    expect(problem).toMatchObject({ path: 'categories.0.forms.1.fields.0.key', formKey: 'lab' });
    const applied = definitionOf([weight, sex], [{ key: 'sex', label: '血红蛋白', type: 'integer' }]);
    expect(checkDefinition(applied).map((p) => [p.path, p.message])).toEqual([[problem?.path, problem?.message]]);
  });

  it("should refuse a bad pattern and a parent's name, and accept its own or a free name", () => {
    expect(checkFieldKey(d, { formKey: 'lab', fieldKey: 'hb' }, 'Hb-1')?.message).toMatch(/^变量名 Hb-1 无效/);
    const parent = definitionOf([{ key: 'bmi', label: 'BMI', type: 'decimal' }]);
    expect(checkFieldKey(d, { formKey: 'lab', fieldKey: 'hb' }, 'bmi', { parent })?.message).toBe(
      '变量名 bmi 重复：已被上级项目的表单「人口学」的字段「BMI」使用',
    );
    expect(checkFieldKey(d, { formKey: 'lab', fieldKey: 'hb' }, 'hb')).toBeNull();
    expect(checkFieldKey(d, { formKey: 'lab', fieldKey: 'hb' }, 'hgb')).toBeNull();
  });
});

describe('structuralProblems', () => {
  it("should give the schema's objections with their paths and the field concerned", () => {
    const d = definitionOf([{ ...weight, label: ' ' }]);
    expect(structuralProblems(d)).toEqual([
      {
        path: 'categories.0.forms.0.fields.0.label',
        formKey: 'demo',
        fieldKey: 'weight',
        message: '字段 weight：请输入字段名称',
        position: null,
      },
    ]);
    expect(structuralProblems(definitionOf([weight]))).toEqual([]);
  });
});
