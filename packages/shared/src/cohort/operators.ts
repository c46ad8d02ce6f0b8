/**
 * Which operators a cohort condition may use and what value each takes, zod-free: the schema (`definition.ts`), the
 * checker (`check.ts`) and the web's cohort builder read the same tables. What each operator MEANS is `evaluate.ts`.
 */

import { PATIENT_GENDERS, PATIENT_STATUSES } from '../contracts/patient-codes';
import { parseIsoDate } from '../followup/schedule';
import type { FieldType } from '../forms/field-types';
import { COHORT_LIMITS, COHORT_OP_LABELS, type CohortOp, type CohortPatientAttr } from './cohort-codes';

/**
 * How a field type is searched. file, richtext, section and description are not searchable; a group is not
 * searched itself, its columns are (each by its own type) inside a row group naming the group (`definition.ts`).
 */
export type FieldSearchKind = 'number' | 'date' | 'partialDate' | 'text' | 'choice' | 'multi';

export function fieldSearchKind(type: FieldType): FieldSearchKind | null {
  switch (type) {
    case 'integer':
    case 'decimal':
    case 'calc':
      return 'number';
    case 'date':
    case 'datetime':
      return 'date';
    case 'partialDate':
      return 'partialDate';
    case 'text':
    case 'textarea':
      return 'text';
    case 'radio':
    case 'dict':
    case 'yesno':
      return 'choice';
    case 'checkbox':
      return 'multi';
    default:
      return null;
  }
}

/** The operators of each kind of field, in the order a picker lists them. */
export const FIELD_KIND_OPS: Readonly<Record<FieldSearchKind, readonly CohortOp[]>> = {
  number: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'between', 'empty', 'notEmpty'],
  date: ['eq', 'before', 'after', 'between', 'withinDaysOf', 'empty', 'notEmpty'],
  partialDate: ['eq', 'before', 'after', 'between', 'empty', 'notEmpty'],
  text: ['eq', 'contains', 'empty', 'notEmpty'],
  choice: ['eq', 'in', 'notIn', 'empty', 'notEmpty'],
  multi: ['anyOf', 'allOf', 'noneOf', 'empty', 'notEmpty'],
};

/** The operators of each patient attribute (center and status are never blank, so they have no empty/notEmpty). */
export const PATIENT_ATTR_OPS: Readonly<Record<CohortPatientAttr, readonly CohortOp[]>> = {
  center: ['in', 'notIn'],
  subProject: ['in', 'notIn', 'empty', 'notEmpty'],
  enrolDate: ['eq', 'before', 'after', 'between', 'empty', 'notEmpty'],
  status: ['in', 'notIn'],
  sex: ['in', 'notIn', 'empty', 'notEmpty'],
  ageAtEnrol: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'between', 'empty', 'notEmpty'],
};

/**
 * The shape of an operator's operand, whatever the type: none (`value`, `other`, `days` all absent), one scalar
 * `value`, a `[low, high]` pair, a list of codes or ids, or `other` + `days` (no `value`).
 */
export type OpShape = 'none' | 'scalar' | 'range' | 'list' | 'other';
export const OP_SHAPES: Readonly<Record<CohortOp, OpShape>> = {
  eq: 'scalar',
  neq: 'scalar',
  gt: 'scalar',
  gte: 'scalar',
  lt: 'scalar',
  lte: 'scalar',
  between: 'range',
  before: 'scalar',
  after: 'scalar',
  withinDaysOf: 'other',
  contains: 'scalar',
  in: 'list',
  notIn: 'list',
  anyOf: 'list',
  allOf: 'list',
  noneOf: 'list',
  empty: 'none',
  notEmpty: 'none',
};

/** The operand one operator takes on one field kind or attribute. */
export type OperandKind =
  | 'none'
  | 'number'
  | 'numberRange'
  | 'age'
  | 'ageRange'
  | 'date'
  | 'dateRange'
  | 'partialDate'
  | 'otherDate'
  | 'text'
  | 'code'
  | 'codes'
  | 'ids'
  | 'statuses'
  | 'sexes';

/** The operand of `op` on a field of this kind, or null when the operator does not fit the field. */
export function fieldOperand(kind: FieldSearchKind, op: CohortOp): OperandKind | null {
  if (!FIELD_KIND_OPS[kind].includes(op)) return null;
  const shape = OP_SHAPES[op];
  if (shape === 'none') return 'none';
  if (shape === 'other') return 'otherDate';
  switch (kind) {
    case 'number':
      return shape === 'range' ? 'numberRange' : 'number';
    case 'date':
      return shape === 'range' ? 'dateRange' : 'date';
    case 'partialDate':
      // eq compares the stored partial date as written; before / after / between take full dates
      return shape === 'range' ? 'dateRange' : op === 'eq' ? 'partialDate' : 'date';
    case 'text':
      return 'text';
    case 'choice':
      return shape === 'list' ? 'codes' : 'code';
    case 'multi':
      return 'codes';
  }
}

/** The operand of `op` on a patient attribute, or null when the operator does not fit the attribute. */
export function patientOperand(attr: CohortPatientAttr, op: CohortOp): OperandKind | null {
  if (!PATIENT_ATTR_OPS[attr].includes(op)) return null;
  const shape = OP_SHAPES[op];
  if (shape === 'none') return 'none';
  switch (attr) {
    case 'center':
    case 'subProject':
      return 'ids';
    case 'status':
      return 'statuses';
    case 'sex':
      return 'sexes';
    case 'enrolDate':
      return shape === 'range' ? 'dateRange' : 'date';
    case 'ageAtEnrol':
      return shape === 'range' ? 'ageRange' : 'age';
  }
}

/** A uuid in any of the forms PostgreSQL's `uuid` reads as 8-4-4-4-12 hex (as `z.guid`). */
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** `YYYY`, `YYYY-MM` or `YYYY-MM-DD` (year 0001 or later), as a partial date field stores it. */
export function isPartialDateValue(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  if (/^\d{4}$/.test(value)) return value !== '0000';
  if (/^\d{4}-\d{2}$/.test(value)) return parseIsoDate(`${value}-01`) !== null;
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && parseIsoDate(value) !== null;
}

function isDateValue(value: unknown): value is string {
  return typeof value === 'string' && parseIsoDate(value) !== null;
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isAge = (v: unknown): v is number => isNumber(v) && Number.isInteger(v) && v >= 0 && v <= COHORT_LIMITS.age;
const isText = (v: unknown): v is string =>
  typeof v === 'string' && v.length >= 1 && v.length <= COHORT_LIMITS.textLength;
const isList = (v: unknown, item: (x: unknown) => boolean): v is unknown[] =>
  Array.isArray(v) && v.length >= 1 && v.length <= COHORT_LIMITS.listItems && v.every(item);

function rangeProblem(value: unknown, item: (x: unknown) => boolean, name: string, what: string): string | null {
  if (!Array.isArray(value) || value.length !== 2 || !item(value[0]) || !item(value[1]))
    return `${name}须填写下限和上限（${what}）`;
  return (value[0] as number | string) > (value[1] as number | string) ? `${name}的下限不能大于上限` : null;
}

/**
 * What is wrong with `value` as an operand of this kind (`name` is the condition's subject, e.g. `「入组日期」`), or
 * null. `otherDate` is the checker's (it needs the form definition); `none` wants no value. Option codes are only
 * checked for being codes here: whether a field has them is the checker's.
 */
export function operandProblem(kind: OperandKind, value: unknown, name: string): string | null {
  switch (kind) {
    case 'none':
    case 'otherDate':
      return value === undefined ? null : `${name}的该条件不需要填写值`;
    case 'number':
      return isNumber(value) ? null : `${name}的比较值须为数字`;
    case 'numberRange':
      return rangeProblem(value, isNumber, name, '数字');
    case 'age':
      return isAge(value) ? null : `${name}的比较值须为0到${COHORT_LIMITS.age}之间的整数（周岁）`;
    case 'ageRange':
      return rangeProblem(value, isAge, name, `0到${COHORT_LIMITS.age}之间的整数`);
    case 'date':
      return isDateValue(value) ? null : `${name}的比较值须为有效日期（YYYY-MM-DD）`;
    case 'dateRange':
      return rangeProblem(value, isDateValue, name, '有效日期 YYYY-MM-DD');
    case 'partialDate':
      return isPartialDateValue(value) ? null : `${name}的比较值须为有效日期（YYYY、YYYY-MM 或 YYYY-MM-DD）`;
    case 'text':
      return isText(value) ? null : `${name}的比较值须为1到${COHORT_LIMITS.textLength}个字符的文本`;
    case 'code':
      return isText(value) ? null : `${name}须选择一个选项`;
    case 'codes':
      return isList(value, isText) ? null : `${name}须选择1到${COHORT_LIMITS.listItems}个选项`;
    case 'ids':
      return isList(value, (v) => typeof v === 'string' && UUID.test(v))
        ? null
        : `${name}须选择1到${COHORT_LIMITS.listItems}项`;
    case 'statuses':
      return isList(value, (v) => (PATIENT_STATUSES as readonly unknown[]).includes(v)) ? null : `${name}不正确`;
    case 'sexes':
      return isList(value, (v) => (PATIENT_GENDERS as readonly unknown[]).includes(v)) ? null : `${name}不正确`;
  }
}

/**
 * What is wrong with a condition's operand for its operator's shape, whatever the field (the schema's check; the
 * checker then checks the value against the field's type).
 */
export function shapeProblem(
  op: CohortOp,
  c: { value?: unknown; other?: unknown; days?: unknown },
  name: string,
): string | null {
  const shape = OP_SHAPES[op];
  const label = `「${COHORT_OP_LABELS[op]}」`;
  if (shape === 'other') {
    if (c.value !== undefined) return `${name}${label}不需要填写比较值`;
    if (c.other === undefined || c.days === undefined) return `${name}${label}须选择另一个日期字段并填写天数`;
    return null;
  }
  if (c.other !== undefined || c.days !== undefined) return `${name}${label}不能选择另一个日期字段`;
  switch (shape) {
    case 'none':
      return c.value === undefined ? null : `${name}${label}不需要填写比较值`;
    case 'scalar':
      return typeof c.value === 'number' || typeof c.value === 'string' ? null : `${name}${label}须填写一个比较值`;
    case 'range':
      return Array.isArray(c.value) &&
        c.value.length === 2 &&
        (c.value.every((v) => typeof v === 'number') || c.value.every((v) => typeof v === 'string'))
        ? null
        : `${name}${label}须填写下限和上限`;
    case 'list':
      return Array.isArray(c.value) && c.value.every((v) => typeof v === 'string')
        ? null
        : `${name}${label}须选择至少一项`;
  }
}
