import { describe, expect, it } from 'vitest';
import { boundFields } from './binding';
import { checkDefinition } from './check';
import { diffDefinitions } from './diff';
import { DEFAULT_MISSING_CODES, definitionSchema, type Definition, type FieldDefinition } from './definition';

const definitionOf = (fields: FieldDefinition[], repeating = false): Definition => ({
  missingCodes: DEFAULT_MISSING_CODES,
  categories: [{ key: 'base', title: '基线', forms: [{ key: 'demo', title: '人口学资料', repeating, fields }] }],
});
const messages = (d: Definition) => checkDefinition(d).map((p) => p.message);

describe('patient bindings', () => {
  it('should accept fields whose type fits their patient attribute', () => {
    const d = definitionOf([
      { key: 'name', label: '姓名', type: 'text', binding: 'patient.name' },
      { key: 'sex', label: '性别', type: 'dict', dictCode: 'gender', binding: 'patient.gender' },
      { key: 'birth', label: '出生日期', type: 'date', binding: 'patient.birthDate' },
      { key: 'idno', label: '身份证号', type: 'text', binding: 'patient.idNumber' },
      {
        key: 'sex2',
        label: '性别2',
        type: 'radio',
        options: [
          { code: '1', label: '男' },
          { code: '2', label: '女' },
        ],
      },
    ]);
    expect(messages(d)).toEqual([]);
    expect(boundFields(d.categories[0]!.forms[0]!).map((b) => [b.field.key, b.attribute])).toEqual([
      ['name', 'name'],
      ['sex', 'gender'],
      ['birth', 'birthDate'],
      ['idno', 'idNumber'],
    ]);
  });

  it('should refuse a binding whose field type does not fit, in Chinese naming the field', () => {
    const d = definitionOf([
      { key: 'birth', label: '出生日期', type: 'text', binding: 'patient.birthDate' },
      {
        key: 'sex',
        label: '性别',
        type: 'radio',
        options: [
          { code: 'm', label: '男' },
          { code: 'f', label: '女' },
        ],
        binding: 'patient.gender',
      },
      { key: 'phone', label: '电话', type: 'integer', binding: 'patient.phone' },
    ]);
    expect(messages(d)).toEqual([
      '「出生日期」(birth)绑定了患者信息「出生日期」，字段类型须为日期',
      '「性别」(sex)绑定了患者信息「性别」，字段类型须为性别字典（gender）或选项编码为性别代码（0、1、2、9）的单选',
      '「电话」(phone)绑定了患者信息「手机号」，字段类型须为单行文本',
    ]);
    expect(checkDefinition(d)[0]?.path).toBe('categories.0.forms.0.fields.0.binding');
  });

  it('should refuse a second field bound to the same attribute and bindings in a repeating form', () => {
    const twice = definitionOf([
      { key: 'name', label: '姓名', type: 'text', binding: 'patient.name' },
      { key: 'name2', label: '姓名2', type: 'text', binding: 'patient.name' },
    ]);
    expect(messages(twice)).toEqual([
      '患者信息「患者姓名」在表单「人口学资料」中已绑定到字段 name，每项只能绑定一个字段',
    ]);
    const hidden = definitionOf([
      { key: 'flag', label: '标记', type: 'yesno' },
      { key: 'phone', label: '电话', type: 'text', binding: 'patient.phone', showIf: "[flag] = '1'" },
    ]);
    expect(messages(hidden)).toEqual(['「电话」(phone)绑定了患者信息「手机号」，不能设置显示条件（患者信息总是显示）']);
    const repeating = definitionOf([{ key: 'name', label: '姓名', type: 'text', binding: 'patient.name' }], true);
    expect(messages(repeating)).toEqual(['「姓名」(name)在重复表单「人口学资料」中，不能绑定患者信息「患者姓名」']);
  });

  it('should list a binding added or removed among the changes to publish', () => {
    const before = definitionOf([{ key: 'name', label: '姓名', type: 'text' }]);
    const bound = definitionOf([{ key: 'name', label: '姓名', type: 'text', binding: 'patient.name' }]);
    expect(diffDefinitions(before, bound).map((c) => c.summary)).toEqual([
      expect.stringContaining('绑定患者信息「患者姓名」'),
    ]);
    expect(diffDefinitions(bound, before).map((c) => c.summary)).toEqual([
      expect.stringContaining('取消绑定患者信息（原为「患者姓名」）'),
    ]);
  });

  it('should refuse an unknown binding in the schema', () => {
    const parsed = definitionSchema.safeParse(
      definitionOf([{ key: 'x', label: 'x', type: 'text', binding: 'patient.x' } as never]),
    );
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe('绑定的患者信息不正确');
  });
});
