import { describe, expect, it } from 'vitest';
import type { Definition, FieldDefinition } from './definition';
import { breakingChanges, diffDefinitions } from './diff';

const sex: FieldDefinition = {
  key: 'sex',
  label: '性别',
  type: 'radio',
  options: [
    { code: '1', label: '男' },
    { code: '2', label: '女' },
  ],
};
const bmi: FieldDefinition = { key: 'bmi', label: 'BMI', type: 'decimal' };
const meds: FieldDefinition = {
  key: 'meds',
  label: '用药',
  type: 'group',
  fields: [
    { key: 'drug', label: '药物', type: 'text' },
    { key: 'dose', label: '剂量', type: 'decimal' },
  ],
};

function defOf(fields: FieldDefinition[], extra: Partial<Definition> = {}): Definition {
  return {
    missingCodes: [{ code: 'UNK', label: '不详' }],
    categories: [{ key: 'base', title: '基线', forms: [{ key: 'demo', title: '基线', fields }] }],
    ...extra,
  };
}

const summaries = (a: Definition | null, b: Definition) =>
  diffDefinitions(a, b).map((c) => [c.kind, c.summary, c.breaking]);

describe('diffDefinitions', () => {
  it('should list nothing when the definitions are equal', () => {
    expect(diffDefinitions(defOf([sex, bmi, meds]), defOf([sex, bmi, meds]))).toEqual([]);
  });

  it('should treat an absent flag and false as the same', () => {
    expect(diffDefinitions(defOf([bmi]), defOf([{ ...bmi, required: false, rules: [] }]))).toEqual([]);
  });

  it('should list everything as added when there is no previous version', () => {
    expect(summaries(null, defOf([bmi]))).toEqual([
      ['added', '新增分类「基线」(base)', false],
      ['added', '分类「基线」新增表单「基线」(demo)', false],
      ['added', '表单「基线」新增字段「BMI」(bmi)，类型：小数', false],
    ]);
  });

  it('should describe a relabelled field in the contract example form', () => {
    const [change] = diffDefinitions(defOf([bmi]), defOf([{ ...bmi, label: '体重指数' }]));
    expect(change).toEqual({
      kind: 'changed',
      entity: 'field',
      categoryKey: 'base',
      formKey: 'demo',
      fieldKey: 'bmi',
      property: 'label',
      before: 'BMI',
      after: '体重指数',
      summary: '表单「基线」字段 bmi：名称由「BMI」改为「体重指数」',
      breaking: false,
    });
  });

  it('should mark a removed field, a changed type and a removed option code as breaking', () => {
    const after = defOf([
      {
        ...sex,
        options: [
          { code: '1', label: '男性' },
          { code: '3', label: '其他' },
        ],
      },
      { ...meds, fields: [{ key: 'drug', label: '药物', type: 'textarea' }] },
    ]);
    expect(summaries(defOf([sex, bmi, meds]), after)).toEqual([
      ['changed', '表单「基线」字段 sex：选项：新增 3「其他」；删除 2「女」；1 由「男」改名为「男性」', true],
      ['changed', '表单「基线」字段 meds.drug：类型由「单行文本」改为「多行文本」', true],
      ['removed', '表单「基线」删除字段「BMI」(bmi)', true],
      ['removed', '表单「基线」删除重复组 meds 的列「剂量」(meds.dose)', true],
    ]);
    expect(breakingChanges(diffDefinitions(defOf([sex, bmi, meds]), after))).toHaveLength(4);
  });

  it('should not mark added options, relabels or new fields as breaking', () => {
    const after = defOf([
      { ...sex, options: [...(sex.options ?? []), { code: '9', label: '未知' }] },
      { ...bmi, required: true, showIf: "[sex] = '1'", min: 10, phi: true },
      { key: 'note', label: '备注', type: 'text' },
    ]);
    const changes = diffDefinitions(defOf([sex, bmi]), after);
    expect(changes.map((c) => [c.property, c.summary])).toEqual([
      ['options', '表单「基线」字段 sex：选项：新增 9「未知」'],
      ['required', '表单「基线」字段 bmi：设为必填'],
      ['showIf', "表单「基线」字段 bmi：新增显示条件「[sex] = '1'」"],
      ['phi', '表单「基线」字段 bmi：设为隐私信息标记'],
      ['min', '表单「基线」字段 bmi：新增最小值「10」'],
      [null, '表单「基线」新增字段「备注」(note)，类型：单行文本'],
    ]);
    expect(changes.some((c) => c.breaking)).toBe(false);
  });

  it('should report a reordered field as moved and a field moved to another form as breaking', () => {
    const two: Definition = {
      missingCodes: [{ code: 'UNK', label: '不详' }],
      categories: [
        {
          key: 'base',
          title: '基线',
          forms: [
            { key: 'demo', title: '基线', fields: [bmi] },
            { key: 'lab', title: '检验', fields: [sex] },
          ],
        },
      ],
    };
    expect(summaries(defOf([sex, bmi]), defOf([bmi, sex]))).toEqual([
      ['moved', '表单「基线」字段 sex「性别」调整了顺序', false],
    ]);
    expect(summaries(defOf([sex, bmi]), two)).toEqual([
      ['added', '分类「基线」新增表单「检验」(lab)', false],
      ['moved', '字段「性别」(sex)从表单「基线」移到表单「检验」，原表单中已录入的数据将不再显示', true],
    ]);
  });

  it('should describe form, category and missing-code changes', () => {
    const before = defOf([bmi]);
    const after: Definition = {
      missingCodes: [{ code: 'NA', label: '不适用' }],
      categories: [
        { key: 'base', title: '基本信息', forms: [{ key: 'demo', title: '人口学', followUp: true, fields: [bmi] }] },
      ],
    };
    expect(summaries(before, after)).toEqual([
      ['changed', '缺失值编码：新增 NA「不适用」；删除 UNK「不详」', false],
      ['changed', '分类 base：名称由「基线」改为「基本信息」', false],
      ['changed', '表单「人口学」：名称由「基线」改为「人口学」', false],
      ['changed', '表单「人口学」：设为随访表单', false],
    ]);
  });

  it('should list a removed form with its fields as breaking', () => {
    const after: Definition = {
      missingCodes: [{ code: 'UNK', label: '不详' }],
      categories: [{ key: 'base', title: '基线', forms: [] }],
    };
    expect(summaries(defOf([bmi]), after)).toEqual([
      ['removed', '删除表单「基线」(demo)及其 1 个字段', true],
      ['removed', '表单「基线」删除字段「BMI」(bmi)', true],
    ]);
  });
});
