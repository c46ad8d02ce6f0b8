import { VALIDATION_LEVELS, type AnyField, type FieldOption, type FieldRule } from '@registry/shared/forms/definition';

/**
 * The layout of the Excel data dictionary (its sheets and columns, see excel.ts) and the encoding of a value in a
 * cell, shared by the export (excel-export.ts) and the import (excel-import.ts).
 */

export const DICTIONARY_SHEET = '数据字典';
export const MISSING_SHEET = '缺失值编码';

export const YES = '是';
export const NO = '否';
export const LEVEL_LABELS: Record<(typeof VALIDATION_LEVELS)[number], string> = { hard: '强制', soft: '提醒' };
export const ACCEPT_LABELS: Record<'image' | 'any', string> = { image: '图片', any: '任意文件' };

export type Scalar = string | number | boolean | undefined;

/** Field properties with one column each (everything but key, type, group membership and `fields`). */
export type FieldColumn = {
  header: string;
  width: number;
  /** A property of every field; `binding` only of a form's own fields (a group column's cell stays empty). */
  prop: keyof AnyField | 'binding';
  kind: 'string' | 'bool' | 'int' | 'number' | 'level' | 'accept' | 'codes' | 'options' | 'rules';
};

export const FIELD_COLUMNS: FieldColumn[] = [
  { header: '字段名称', width: 30, prop: 'label', kind: 'string' },
  { header: '必填', width: 6, prop: 'required', kind: 'bool' },
  { header: '帮助说明', width: 24, prop: 'help', kind: 'string' },
  { header: '显示条件', width: 30, prop: 'showIf', kind: 'string' },
  { header: '隐私字段', width: 8, prop: 'phi', kind: 'bool' },
  { header: '列表显示', width: 8, prop: 'listColumn', kind: 'bool' },
  { header: '允许的缺失值编码', width: 16, prop: 'missingCodes', kind: 'codes' },
  { header: '单位', width: 8, prop: 'unit', kind: 'string' },
  { header: '小数位数', width: 8, prop: 'precision', kind: 'int' },
  { header: '最小值', width: 8, prop: 'min', kind: 'number' },
  { header: '最大值', width: 8, prop: 'max', kind: 'number' },
  { header: '最早日期', width: 12, prop: 'minDate', kind: 'string' },
  { header: '最晚日期', width: 12, prop: 'maxDate', kind: 'string' },
  { header: '范围校验级别', width: 10, prop: 'rangeLevel', kind: 'level' },
  { header: '正常值下限', width: 10, prop: 'normalLow', kind: 'number' },
  { header: '正常值上限', width: 10, prop: 'normalHigh', kind: 'number' },
  { header: '选项', width: 36, prop: 'options', kind: 'options' },
  { header: '字典编码', width: 12, prop: 'dictCode', kind: 'string' },
  { header: '计算公式', width: 30, prop: 'formula', kind: 'string' },
  { header: '最大长度', width: 8, prop: 'maxLength', kind: 'int' },
  { header: '文件类型', width: 10, prop: 'accept', kind: 'accept' },
  { header: '最多文件数', width: 10, prop: 'maxFiles', kind: 'int' },
  { header: '最少行数', width: 8, prop: 'minRows', kind: 'int' },
  { header: '最多行数', width: 8, prop: 'maxRows', kind: 'int' },
  { header: '校验规则', width: 36, prop: 'rules', kind: 'rules' },
  { header: '绑定患者信息', width: 18, prop: 'binding', kind: 'string' },
];

export const H = {
  categoryKey: '分类编码',
  categoryTitle: '分类名称',
  formKey: '表单编码',
  formTitle: '表单名称',
  formDescription: '表单说明',
  followUp: '随访表单',
  repeating: '可重复表单',
  group: '所属重复组',
  key: '变量名',
  type: '字段类型',
  patternRegex: '正则表达式',
  patternMessage: '正则提示信息',
  patternLevel: '正则校验级别',
} as const;

const LEADING_COLUMNS: { header: string; width: number }[] = [
  { header: H.categoryKey, width: 14 },
  { header: H.categoryTitle, width: 16 },
  { header: H.formKey, width: 16 },
  { header: H.formTitle, width: 18 },
  { header: H.formDescription, width: 18 },
  { header: H.followUp, width: 8 },
  { header: H.repeating, width: 10 },
  { header: H.group, width: 12 },
  { header: H.key, width: 18 },
  { header: H.type, width: 14 },
];
const PATTERN_COLUMNS: { header: string; width: number }[] = [
  { header: H.patternRegex, width: 20 },
  { header: H.patternMessage, width: 20 },
  { header: H.patternLevel, width: 10 },
];
export const ALL_COLUMNS = [...LEADING_COLUMNS, ...FIELD_COLUMNS, ...PATTERN_COLUMNS];

const escapeOptionLabel = (label: string) => label.replace(/\\/g, '\\\\').replace(/\|/g, '\\|');

export function formatOptions(options: readonly FieldOption[]): string {
  return options.map((o) => `${o.code}, ${escapeOptionLabel(o.label)}`).join(' | ');
}

/** `1, 男 | 2, 女` → options; `\|`, `\,` and `\\` in a name stand for the character. Throws a Chinese message. */
export function parseOptions(text: string): FieldOption[] {
  const items: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\' && i + 1 < text.length) {
      current += ch + text[i + 1];
      i++;
    } else if (ch === '|') {
      items.push(current);
      current = '';
    } else current += ch;
  }
  items.push(current);
  return items
    .filter((item) => item.trim() !== '')
    .map((item) => {
      const comma = item.indexOf(',');
      if (comma < 0) throw new Error(`选项「${item.trim()}」缺少逗号，应为「编码, 名称」`);
      const code = item.slice(0, comma).trim();
      const label = item
        .slice(comma + 1)
        .replace(/\\(.)/g, '$1')
        .trim();
      return { code, label };
    });
}

export function formatScalar(column: FieldColumn, value: unknown): Scalar {
  if (value === undefined || value === null) return undefined;
  switch (column.kind) {
    case 'bool':
      return value ? YES : NO;
    case 'level':
      return LEVEL_LABELS[value as 'hard' | 'soft'];
    case 'accept':
      return ACCEPT_LABELS[value as 'image' | 'any'];
    case 'codes':
      return (value as string[]).join(', ');
    case 'options':
      return formatOptions(value as FieldOption[]);
    case 'rules':
      return JSON.stringify(value as FieldRule[]);
    case 'int':
    case 'number':
      // -0 would read back as 0 from the sheet's number; keep it as text.
      return Object.is(value, -0) ? '-0' : (value as number);
    default:
      return value as string;
  }
}
