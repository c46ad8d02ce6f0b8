import { describe, expect, it } from 'vitest';
import type { FieldDefinition, FormDefinition } from './definition';
import { evaluateForm, isAbnormal, validateRecord, type ValidateContext } from './record';

const TODAY = '2026-03-15';
const submit: ValidateContext = { mode: 'submit', today: TODAY, missingCodes: ['UNK', 'NA'] };
const draft: ValidateContext = { ...submit, mode: 'draft' };

function formOf(...fields: FieldDefinition[]): FormDefinition {
  return { key: 'demo', title: '基线', fields };
}

const issuesOf = (form: FormDefinition, data: Record<string, unknown>, ctx: ValidateContext = submit) =>
  validateRecord(form, data, ctx).issues.map((i) => [i.path, i.message, i.level]);

describe('evaluateForm', () => {
  const form = formOf(
    { key: 'weight', label: '体重', type: 'decimal' },
    { key: 'height', label: '身高', type: 'integer' },
    { key: 'bmi', label: 'BMI', type: 'calc', formula: '[weight] / ([height] / 100) ^ 2', precision: 1 },
    { key: 'obese', label: '肥胖', type: 'calc', formula: 'if([bmi] >= 28, 1, 0)' },
    { key: 'smoke', label: '吸烟', type: 'yesno' },
    { key: 'packs', label: '每日包数', type: 'decimal', showIf: "[smoke] = '1'" },
    { key: 'heavy', label: '重度吸烟', type: 'yesno', showIf: '[packs] >= 1' },
  );

  it('should compute calculated fields in dependency order and round them to their precision', () => {
    const result = evaluateForm(form, { weight: 90, height: 175 }, { today: TODAY });
    expect(result.data).toMatchObject({ bmi: 29.4, obese: 1 });
  });

  it('should leave a calc blank when an input is blank and replace what the client sent', () => {
    const result = evaluateForm(form, { weight: 90, bmi: 12, obese: 'x' }, { today: TODAY });
    expect(result.data).not.toHaveProperty('bmi');
    expect(result.data.obese).toBe(0);
  });

  it('should hide a field and, in cascade, the fields that depend on it when its show-if turns false', () => {
    const result = evaluateForm(form, { smoke: '0', packs: 2, heavy: '1' }, { today: TODAY });
    expect(result.hidden).toEqual(['packs', 'heavy']);
    expect(result.clear).toEqual(['packs', 'heavy']);
    expect(result.data.packs).toBe(2);
  });

  it('should show the dependent fields when the show-if holds', () => {
    const result = evaluateForm(form, { smoke: '1', packs: 2 }, { today: TODAY });
    expect(result.hidden).toEqual([]);
  });

  it('should hide group cells per row and a whole group with its show-if', () => {
    const groupForm = formOf(
      { key: 'has_meds', label: '用药', type: 'yesno' },
      {
        key: 'meds',
        label: '用药记录',
        type: 'group',
        showIf: "[has_meds] = '1'",
        fields: [
          { key: 'drug', label: '药物', type: 'text' },
          { key: 'other', label: '其他药物', type: 'text', showIf: "[drug] = 'other'" },
          { key: 'daily', label: '日剂量', type: 'calc', formula: '[dose] * [times]' },
          { key: 'dose', label: '剂量', type: 'decimal' },
          { key: 'times', label: '次数', type: 'integer' },
        ],
      },
    );
    const rows = [
      { drug: 'other', other: 'x', dose: 2, times: 3 },
      { drug: 'aspirin', other: 'y', dose: 1 },
    ];
    const shown = evaluateForm(groupForm, { has_meds: '1', meds: rows }, { today: TODAY });
    expect(shown.hidden).toEqual(['meds.1.other']);
    expect(shown.clear).toEqual(['meds.1.other']);
    expect(shown.data.meds).toEqual([
      { drug: 'other', other: 'x', dose: 2, times: 3, daily: 6 },
      { drug: 'aspirin', other: 'y', dose: 1 },
    ]);
    const hidden = evaluateForm(groupForm, { has_meds: '0', meds: rows }, { today: TODAY });
    expect(hidden.hidden).toEqual(['meds']);
    expect(hidden.clear).toEqual(['meds']);
  });

  it('should read fields of other forms from the external values', () => {
    const f = formOf({ key: 'note', label: '备注', type: 'text', showIf: "[sex] = '2'" });
    expect(evaluateForm(f, { note: 'a' }, { external: { sex: '2' } }).hidden).toEqual([]);
    expect(evaluateForm(f, { note: 'a' }, { external: { sex: '1' } }).hidden).toEqual(['note']);
  });

  it('should read a missing-data code as blank in logic', () => {
    const f = formOf(
      { key: 'age', label: '年龄', type: 'integer', missingCodes: ['UNK'] },
      { key: 'older', label: '老年', type: 'calc', formula: 'if([age] >= 65, 1, 0)' },
      { key: 'why', label: '未知原因', type: 'text', showIf: "[age] = ''" },
    );
    const result = evaluateForm(f, { age: 'UNK' }, { missingCodes: ['UNK'] });
    expect(result.data.older).toBe(0);
    expect(result.hidden).toEqual([]);
    // Without the definition's list, the codes the form's fields accept read as blank.
    expect(evaluateForm(f, { age: 'UNK' }).hidden).toEqual([]);
  });

  it('should compute every calc and show-if of a 300-field form in dependency order (timings: npm run bench)', () => {
    const fields: FieldDefinition[] = [];
    const data: Record<string, unknown> = {};
    for (let i = 0; i < 300; i++) {
      const kind = i % 3;
      if (kind === 0) {
        fields.push({
          key: `n${i}`,
          label: `数值${i}`,
          type: 'decimal',
          min: 0,
          max: 1000,
          rules: [{ expr: `[n${i}] >= 0`, message: 'm', level: 'soft' }],
        });
        data[`n${i}`] = i;
      } else if (kind === 1) {
        fields.push({ key: `c${i}`, label: `计算${i}`, type: 'calc', formula: `[n${i - 1}] * 2 + 1`, precision: 1 });
      } else {
        fields.push({
          key: `t${i}`,
          label: `文本${i}`,
          type: 'text',
          showIf: `[c${i - 1}] > 10 and [n${i - 2}] <> ''`,
          required: true,
        });
        data[`t${i}`] = 'x';
      }
    }
    const big = formOf(...fields);
    const verdict = validateRecord(big, data, submit);
    for (let i = 1; i < 300; i += 3) {
      const calc = (i - 1) * 2 + 1;
      expect(verdict.data[`c${i}`]).toBe(calc);
      // t(i+1) shows only while c(i) > 10; a hidden text is cleared, a visible one kept.
      expect(verdict.data[`t${i + 1}`]).toBe(calc > 10 ? 'x' : undefined);
    }
    expect(verdict.valid).toBe(true);
  });
});

describe('validateRecord', () => {
  it('should refuse unknown keys and data for layout fields as hard issues', () => {
    const f = formOf({ key: 's', label: '分节', type: 'section' }, { key: 'a', label: 'A', type: 'text' });
    const verdict = validateRecord(f, { a: 'x', zzz: 1, s: 'y' }, submit);
    expect(verdict.issues.map((i) => [i.path, i.message])).toEqual([
      ['zzz', '未知字段 zzz'],
      ['s', '「分节」不能填写数据'],
    ]);
    expect(verdict.valid).toBe(false);
    expect(verdict.data).toEqual({ a: 'x' });
  });

  it('should report a __proto__ key as unknown and keep it out of the prototype', () => {
    const f = formOf({ key: 'a', label: 'A', type: 'text' });
    const verdict = validateRecord(
      f,
      JSON.parse('{"a":"x","__proto__":{"polluted":1}}') as Record<string, unknown>,
      submit,
    );
    expect(verdict.issues.map((i) => i.message)).toEqual(['未知字段 __proto__']);
    expect(
      Object.getPrototypeOf(evaluateForm(f, JSON.parse('{"__proto__":{"b":1}}') as Record<string, unknown>).data),
    ).toBe(Object.prototype);
  });

  it('should require visible required fields only in submit mode', () => {
    const f = formOf(
      { key: 'weight', label: '体重', type: 'decimal', required: true },
      { key: 'smoke', label: '吸烟', type: 'yesno' },
      { key: 'packs', label: '包数', type: 'integer', required: true, showIf: "[smoke] = '1'" },
      { key: 'calc', label: '计算', type: 'calc', formula: '[weight] * 2' },
    );
    expect(issuesOf(f, {})).toEqual([['weight', '请填写「体重」', 'hard']]);
    expect(issuesOf(f, { weight: 60, smoke: '1' })).toEqual([['packs', '请填写「包数」', 'hard']]);
    expect(issuesOf(f, {}, draft)).toEqual([]);
  });

  it('should clear hidden fields from the stored data and say nothing about them', () => {
    const f = formOf(
      { key: 'smoke', label: '吸烟', type: 'yesno' },
      { key: 'packs', label: '包数', type: 'integer', max: 10, showIf: "[smoke] = '1'" },
    );
    const verdict = validateRecord(f, { smoke: '0', packs: 'not a number' }, submit);
    expect(verdict).toEqual({ valid: true, issues: [], data: { smoke: '0' } });
  });

  it('should name the field when a value has the wrong type', () => {
    const f = formOf(
      { key: 'weight', label: '体重', type: 'decimal' },
      { key: 'age', label: '年龄', type: 'integer' },
      { key: 'name', label: '姓名', type: 'text' },
      { key: 'sex', label: '性别', type: 'radio', options: [{ code: '1', label: '男' }] },
      { key: 'sym', label: '症状', type: 'checkbox', options: [{ code: '1', label: '咳嗽' }] },
      { key: 'pic', label: '图片', type: 'file' },
      { key: 'rows', label: '表格', type: 'group', fields: [{ key: 'x', label: 'X', type: 'text' }] },
    );
    expect(issuesOf(f, { weight: '60', age: 1.5, name: 3, sex: 1, sym: '1', pic: [{ name: 'a' }], rows: 'x' })).toEqual(
      [
        ['weight', '「体重」须为数字', 'hard'],
        ['age', '「年龄」须为整数', 'hard'],
        ['name', '「姓名」须为文本', 'hard'],
        ['sex', '「性别」须为选项编码', 'hard'],
        ['sym', '「症状」须为选项编码的列表', 'hard'],
        ['pic', '「图片」须为已上传文件的列表', 'hard'],
        ['rows', '「表格」须为表格行的列表', 'hard'],
      ],
    );
  });

  it('should check option codes of radio, yes/no, checkbox and dict fields', () => {
    const f = formOf(
      { key: 'sex', label: '性别', type: 'radio', options: [{ code: '1', label: '男' }] },
      { key: 'yn', label: '是否', type: 'yesno' },
      {
        key: 'sym',
        label: '症状',
        type: 'checkbox',
        options: [
          { code: '1', label: '咳嗽' },
          { code: '2', label: '发热' },
        ],
      },
      { key: 'blood', label: '血型', type: 'dict', dictCode: 'blood' },
    );
    const ctx: ValidateContext = { ...submit, dictionaryHas: (dict, code) => dict === 'blood' && code === 'A' };
    expect(issuesOf(f, { sex: '1', yn: '1', sym: ['1', '2'], blood: 'A' }, ctx)).toEqual([]);
    expect(issuesOf(f, { sex: '3', yn: '2', sym: ['1', '1', '9'], blood: 'Z' }, ctx)).toEqual([
      ['sex', '「性别」没有编码为 3 的选项', 'hard'],
      ['yn', '「是否」没有编码为 2 的选项', 'hard'],
      ['sym', '「症状」没有编码为 9 的选项', 'hard'],
      ['blood', '「血型」的选项 Z 不在字典中', 'hard'],
    ]);
    expect(issuesOf(f, { sym: ['1', '1'] }, ctx)).toEqual([['sym', '「症状」的选项重复', 'hard']]);
  });

  it('should check the number range with its unit at the range level and decimals against the precision', () => {
    const f = formOf(
      { key: 'sbp', label: '收缩压', type: 'integer', min: 40, max: 300, unit: 'mmHg' },
      { key: 'hr', label: '心率', type: 'integer', min: 30, max: 200, rangeLevel: 'soft' },
      { key: 'wt', label: '体重', type: 'decimal', precision: 1 },
      { key: 'n', label: '次数', type: 'decimal', precision: 0 },
    );
    expect(issuesOf(f, { sbp: 301, hr: 20, wt: 60.25, n: 1.5 })).toEqual([
      ['sbp', '「收缩压」不能大于 300 mmHg', 'hard'],
      ['hr', '「心率」不能小于 30', 'soft'],
      ['wt', '「体重」最多保留 1 位小数', 'hard'],
      ['n', '「次数」须为整数', 'hard'],
    ]);
    expect(validateRecord(f, { hr: 20 }, submit).valid).toBe(true);
    expect(issuesOf(f, { sbp: 300, hr: 30, wt: 60.2, n: 2 })).toEqual([]);
  });

  it('should accept real calendar dates in the right format and check date bounds, today included', () => {
    const f = formOf(
      { key: 'd', label: '就诊日期', type: 'date', minDate: '2020-01-01', maxDate: 'today' },
      { key: 'dt', label: '采样时间', type: 'datetime' },
      { key: 'p', label: '确诊时间', type: 'partialDate', maxDate: '2025-06-30' },
    );
    expect(issuesOf(f, { d: '2024-02-29', dt: '2024-02-29T23:59', p: '2025' })).toEqual([]);
    expect(issuesOf(f, { d: '2023-02-29', dt: '2024-02-29 10:00', p: '2025-13' })).toEqual([
      ['d', '「就诊日期」须为有效日期（YYYY-MM-DD）', 'hard'],
      ['dt', '「采样时间」须为有效日期（YYYY-MM-DDTHH:mm）', 'hard'],
      ['p', '「确诊时间」须为有效日期（YYYY、YYYY-MM 或 YYYY-MM-DD）', 'hard'],
    ]);
    expect(issuesOf(f, { d: '2026-03-16', p: '2025-07' })).toEqual([
      ['d', '「就诊日期」不能晚于今天', 'hard'],
      ['p', '「确诊时间」不能晚于2025-06-30', 'hard'],
    ]);
    expect(issuesOf(f, { d: '2019-12-31' })).toEqual([['d', '「就诊日期」不能早于2020-01-01', 'hard']]);
  });

  it('should check text length and the pattern at its level', () => {
    const f = formOf({
      key: 'id',
      label: '住院号',
      type: 'text',
      maxLength: 6,
      pattern: { regex: '[A-Z]\\d+', message: '住院号格式不正确', level: 'soft' },
    });
    expect(issuesOf(f, { id: 'A12345' })).toEqual([]);
    expect(issuesOf(f, { id: 'a1234567' })).toEqual([
      ['id', '「住院号」不能超过 6 个字符', 'hard'],
      ['id', '住院号格式不正确', 'soft'],
    ]);
  });

  it('should accept a missing-data code the field allows and that the definition lists, and nothing else', () => {
    const f = formOf(
      { key: 'a', label: '年龄', type: 'integer', required: true, missingCodes: ['UNK', 'XX'] },
      { key: 'b', label: '体重', type: 'decimal', missingCodes: ['UNK'] },
    );
    expect(issuesOf(f, { a: 'UNK', b: 'UNK' })).toEqual([]);
    expect(issuesOf(f, { a: 'XX', b: 'NA' })).toEqual([
      ['a', '「年龄」须为数字', 'hard'],
      ['b', '「体重」须为数字', 'hard'],
    ]);
  });

  it('should check rows of a group with their paths, row bounds and required groups', () => {
    const f = formOf({
      key: 'meds',
      label: '用药',
      type: 'group',
      required: true,
      minRows: 2,
      maxRows: 3,
      fields: [
        { key: 'drug', label: '药物', type: 'text', required: true },
        { key: 'dose', label: '剂量', type: 'decimal', max: 100, unit: 'mg' },
      ],
    });
    expect(issuesOf(f, {})).toEqual([['meds', '请填写「用药」', 'hard']]);
    expect(issuesOf(f, { meds: [{ drug: 'a', dose: 200 }] })).toEqual([
      ['meds', '「用药」至少需要 2 行', 'hard'],
      ['meds.0.dose', '「剂量」不能大于 100 mg', 'hard'],
    ]);
    expect(issuesOf(f, { meds: [{ dose: 1 }, { drug: 'b', zz: 1 }, 'x', {}] })).toEqual([
      ['meds', '「用药」最多 3 行', 'hard'],
      ['meds.0.drug', '请填写「药物」', 'hard'],
      ['meds.1.zz', '未知字段 zz', 'hard'],
      ['meds.2', '「用药」第 3 行格式不正确', 'hard'],
      ['meds.3.drug', '请填写「药物」', 'hard'],
    ]);
    expect(issuesOf(f, { meds: [{ dose: 1 }] }, draft)).toEqual([]);
  });

  it('should report a failed rule with its message at its level and let a blank rule pass', () => {
    const f = formOf(
      { key: 'sbp', label: '收缩压', type: 'integer' },
      {
        key: 'dbp',
        label: '舒张压',
        type: 'integer',
        rules: [
          { expr: '[dbp] < [sbp]', message: '舒张压应低于收缩压', level: 'hard' },
          { expr: '[sbp] - [dbp] >= 20', message: '脉压偏小', level: 'soft' },
        ],
      },
    );
    expect(issuesOf(f, { sbp: 120, dbp: 80 })).toEqual([]);
    expect(issuesOf(f, { sbp: 90, dbp: 80 })).toEqual([['dbp', '脉压偏小', 'soft']]);
    expect(issuesOf(f, { sbp: 80, dbp: 90 })).toEqual([
      ['dbp', '舒张压应低于收缩压', 'hard'],
      ['dbp', '脉压偏小', 'soft'],
    ]);
    expect(issuesOf(f, { dbp: 90 })).toEqual([]);
  });

  it('should evaluate group column rules inside their row', () => {
    const f = formOf(
      { key: 'weight', label: '体重', type: 'decimal' },
      {
        key: 'meds',
        label: '用药',
        type: 'group',
        fields: [
          {
            key: 'dose',
            label: '剂量',
            type: 'decimal',
            rules: [{ expr: '[dose] <= [weight]', message: '剂量过大', level: 'hard' }],
          },
        ],
      },
    );
    expect(issuesOf(f, { weight: 50, meds: [{ dose: 10 }, { dose: 60 }] })).toEqual([
      ['meds.1.dose', '剂量过大', 'hard'],
    ]);
  });

  it('should never throw on junk input', () => {
    const f = formOf(
      { key: 'a', label: 'A', type: 'integer', showIf: '[b] > 1' },
      { key: 'b', label: 'B', type: 'group', fields: [{ key: 'c', label: 'C', type: 'calc', formula: '[c] + 1' }] },
    );
    for (const junk of [{ a: { x: 1 }, b: [null, 1, [2], { c: {} }] }, { b: { length: 3 } }, { a: [[[]]] }]) {
      expect(() => validateRecord(f, junk, submit)).not.toThrow();
    }
  });
});

describe('isAbnormal', () => {
  it('should flag values outside the normal range and nothing else', () => {
    const field: FieldDefinition = { key: 'hb', label: '血红蛋白', type: 'integer', normalLow: 120, normalHigh: 160 };
    expect([100, 120, 160, 170].map((v) => isAbnormal(field, v))).toEqual([true, false, false, true]);
    expect(isAbnormal(field, 'UNK')).toBe(false);
  });
});
