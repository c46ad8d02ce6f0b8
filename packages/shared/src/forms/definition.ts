import { z } from 'zod';
import { PATTERN_MAX_LENGTH } from './pattern-limits';
import {
  FIELD_TYPES,
  FIELD_TYPE_LABELS,
  LAYOUT_FIELD_TYPES,
  NUMERIC_FIELD_TYPES,
  CHOICE_FIELD_TYPES,
  YES_NO_OPTIONS,
  FIELD_KEY_PATTERN,
  FIELD_KEY_MESSAGE,
  type FieldType,
} from './field-types';
import { PATIENT_BINDINGS } from './binding';

/**
 * The form definition: a project's "database" of case report forms. Categories → forms → fields; a repeating group
 * field holds its own (flat) fields, one set per row. Field keys are the stable variable names of the data: unique in
 * the whole definition (a sub-project's forms share one key space with its parent's), never reused for another
 * meaning, and what the logic language refers to as `[key]`.
 *
 * Record data (JSONB, one object per form instance) keyed by field key:
 * - text, textarea, richtext (HTML), date (`YYYY-MM-DD`), datetime (`YYYY-MM-DDTHH:mm`), partialDate (`YYYY`,
 *   `YYYY-MM` or `YYYY-MM-DD`), radio / dict / yesno (the option code; yes/no is `'1'` / `'0'`): string
 * - integer, decimal, calc: number (calc is computed by the engine, never trusted from the client)
 * - checkbox: string[] of option codes
 * - file: { fileId, name }[]
 * - group: row objects keyed by the group's own field keys
 * - any field that allows a missing-data code may hold that code (a string of the definition's `missingCodes`)
 * - section and description hold no data
 * A blank value is absent (or null / '' / []).
 */

export {
  FIELD_TYPES,
  FIELD_TYPE_LABELS,
  LAYOUT_FIELD_TYPES,
  NUMERIC_FIELD_TYPES,
  CHOICE_FIELD_TYPES,
  YES_NO_OPTIONS,
  FIELD_KEY_PATTERN,
  FIELD_KEY_MESSAGE,
  type FieldType,
};

const key = z.string().trim().regex(FIELD_KEY_PATTERN, FIELD_KEY_MESSAGE);
const label = (what: string, max = 500) =>
  z.string().trim().min(1, `请输入${what}`).max(max, `${what}不能超过${max}个字符`);

export const optionSchema = z.object({
  code: z
    .string()
    .trim()
    .min(1, '请输入选项编码')
    .max(64, '选项编码不能超过64个字符')
    .regex(/^[A-Za-z0-9_.-]+$/, '选项编码只能包含字母、数字、下划线、点和短横线'),
  label: label('选项名称', 200),
});
export type FieldOption = z.infer<typeof optionSchema>;

export const VALIDATION_LEVELS = ['hard', 'soft'] as const;
/** hard = blocks saving; soft = a warning that raises a query. */
export type ValidationLevel = (typeof VALIDATION_LEVELS)[number];

/** A cross-field rule: the expression must be true (or blank) for the record to pass. */
export const ruleSchema = z.object({
  expr: label('校验表达式', 2000),
  message: label('提示信息', 200),
  level: z.enum(VALIDATION_LEVELS).default('hard'),
});
export type FieldRule = z.infer<typeof ruleSchema>;

export const patternSchema = z.object({
  /** An RE2 regular expression (plus JavaScript's `\uXXXX`), matched against the whole value: see `pattern.ts`. */
  regex: label('正则表达式', PATTERN_MAX_LENGTH),
  message: label('提示信息', 200),
  level: z.enum(VALIDATION_LEVELS).default('hard'),
});

export const missingCodeSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^[A-Z][A-Z0-9_]{0,15}$/, '缺失值编码须为大写字母开头的大写字母、数字或下划线，最长16个字符'),
  label: label('缺失值说明', 100),
});
export type MissingCode = z.infer<typeof missingCodeSchema>;

/** The missing-data codes a new definition starts with. */
export const DEFAULT_MISSING_CODES: MissingCode[] = [
  { code: 'NA', label: '不适用' },
  { code: 'UNK', label: '不详' },
  { code: 'ND', label: '未查' },
  { code: 'ASKU', label: '询问未答' },
];

const fieldProps = {
  key,
  label: label('字段名称'),
  required: z.boolean().optional(),
  help: z.string().max(2000, '帮助说明不能超过2000个字符').optional(),
  /** Logic expression; the field shows only while it is true. */
  showIf: z.string().max(2000, '显示条件不能超过2000个字符').optional(),
  /** Personal health information: dropped or masked by de-identified exports. */
  phi: z.boolean().optional(),
  /** Shown as a column of the patient list. */
  listColumn: z.boolean().optional(),
  /** Missing-data codes this field accepts instead of a value (codes of the definition's `missingCodes`). */
  missingCodes: z.array(z.string()).optional(),
  /** Text: maximum length. */
  maxLength: z.number().int().min(1).max(100000).optional(),
  pattern: patternSchema.optional(),
  /** Numbers: unit, decimal places, range (dates: ISO strings in `minDate` / `maxDate`, or 'today'). */
  unit: z.string().max(50, '单位不能超过50个字符').optional(),
  precision: z.number().int().min(0).max(10).optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  minDate: z.string().optional(),
  maxDate: z.string().optional(),
  /** Level of the min/max (and date range) check; hard by default. */
  rangeLevel: z.enum(VALIDATION_LEVELS).optional(),
  /** Reference (normal) range: values outside are flagged, not refused. */
  normalLow: z.number().optional(),
  normalHigh: z.number().optional(),
  /** radio / checkbox */
  options: z.array(optionSchema).optional(),
  /** dict: the code of a shared option list (`sys-field-dict-option`) */
  dictCode: z.string().max(64).optional(),
  /** calc: a logic expression over other fields */
  formula: z.string().max(2000, '计算公式不能超过2000个字符').optional(),
  /** file */
  accept: z.enum(['image', 'any']).optional(),
  maxFiles: z.number().int().min(1).max(50).optional(),
  /** group: row count bounds */
  minRows: z.number().int().min(0).optional(),
  maxRows: z.number().int().min(1).optional(),
  rules: z.array(ruleSchema).optional(),
};

/** A field of a repeating group row: any type but a group (groups do not nest). */
export const groupColumnSchema = z.object({
  ...fieldProps,
  type: z.enum(FIELD_TYPES).exclude(['group']),
});
export type GroupColumn = z.infer<typeof groupColumnSchema>;

export const fieldSchema = z.object({
  ...fieldProps,
  type: z.enum(FIELD_TYPES),
  /** group: the row's fields */
  fields: z.array(groupColumnSchema).optional(),
  /**
   * Bound to a patient attribute (`binding.ts`): the value is the patient record's, never typed a second time. A
   * form's own field only (group columns cannot be bound).
   */
  binding: z.enum(PATIENT_BINDINGS, '绑定的患者信息不正确').optional(),
});
export type FieldDefinition = z.infer<typeof fieldSchema>;
/** A field anywhere: a form's own or a group's column. */
export type AnyField = FieldDefinition | GroupColumn;

export const formSchema = z.object({
  key,
  title: label('表单名称', 200),
  description: z.string().max(2000).optional(),
  /** Used at follow-up visits (shown by `/manage/database/followup`). */
  followUp: z.boolean().optional(),
  /** A patient may have several instances of this form (e.g. one per hospital stay). */
  repeating: z.boolean().optional(),
  fields: z.array(fieldSchema),
});
export type FormDefinition = z.infer<typeof formSchema>;

export const categorySchema = z.object({
  key,
  title: label('分类名称', 200),
  forms: z.array(formSchema),
});
export type CategoryDefinition = z.infer<typeof categorySchema>;

/** The whole definition (what a version freezes). Structural checks only; `checkDefinition` (engine) does the rest. */
export const definitionSchema = z.object({
  categories: z.array(categorySchema),
  missingCodes: z.array(missingCodeSchema).default(DEFAULT_MISSING_CODES),
});
export type Definition = z.infer<typeof definitionSchema>;

export const EMPTY_DEFINITION: Definition = { categories: [], missingCodes: DEFAULT_MISSING_CODES };
