import { z } from 'zod';
import { parseIsoDate } from '../followup/schedule';
import { passwordProblem } from '../password-policy';

/**
 * Request-field helpers every contract uses for dates, instants, integers and ids: each bounds its value to what the
 * database stores, so a well-formed but out-of-range value (year 0000, an `instance` of 2³¹) is a 400 naming the
 * field (the server prefixes the field's Chinese label), never a PostgreSQL error and a 500.
 *
 * Dates are `YYYY-MM-DD` calendar dates. Two ranges:
 * - `dateString()` — anything PostgreSQL's `date` and JavaScript both store: 0001-01-01 … 9999-12-31. For filters
 *   (a search "from 0001-01-01" is odd but harmless).
 * - `clinicalDate()` — 1900-01-01 … 2100-12-31, for dates a user enters about a patient (birth, enrolment, death,
 *   follow-up visits): a birth year 0201 is a typo, not a patient.
 */

/** PostgreSQL `integer` (int4). */
export const INT4_MIN = -2_147_483_648;
export const INT4_MAX = 2_147_483_647;

export const DATE_MIN = '0001-01-01';
export const DATE_MAX = '9999-12-31';
export const CLINICAL_DATE_MIN = '1900-01-01';
export const CLINICAL_DATE_MAX = '2100-12-31';

/** What a field helper is, for the server's fuzz test that finds every date and integer field of the route table. */
export type FieldKind = 'date' | 'instant' | 'int' | 'int8';
export const fieldKinds = z.registry<{ fieldKind: FieldKind }>();

type IntOptions = { min?: number; max?: number; message?: string };

function checkBounds({ min = 0, max = INT4_MAX }: IntOptions): void {
  if (min < INT4_MIN || max > INT4_MAX || min > max) throw new RangeError(`int4 bounds ${min}…${max}`);
}

/**
 * An integer of a PostgreSQL `integer` column (JSON body): `min` (default 0) … `max` (default 2147483647). One
 * `message` replaces the default ones ('应为整数', '不能小于0', '不能大于2147483647').
 */
export function int4(options: IntOptions = {}) {
  checkBounds(options);
  const { min = 0, max = INT4_MAX, message } = options;
  const n = z
    .number(message ?? '应为整数')
    .int(message ?? '应为整数')
    .min(min, message ?? `不能小于${min}`)
    .max(max, message ?? `不能大于${max}`);
  fieldKinds.add(n, { fieldKind: 'int' });
  return n;
}

/** `int4` of a query string (`?instance=2`): the text is read as a number first ('abc', 'NaN' → '应为整数'). */
export function queryInt4(options: IntOptions = {}) {
  checkBounds(options);
  const { min = 0, max = INT4_MAX, message } = options;
  const n = z.coerce
    .number(message ?? '应为整数')
    .int(message ?? '应为整数')
    .min(min, message ?? `不能小于${min}`)
    .max(max, message ?? `不能大于${max}`);
  fieldKinds.add(n, { fieldKind: 'int' });
  return n;
}

/**
 * A `bigint` id compared with a `bigserial` (audit event ids) from a query or body: 0 … 2⁵³−1 (JavaScript's safe
 * integers, well inside int8).
 */
export function querySafeInt(message = '应为整数') {
  const n = z.coerce.number(message).int(message).min(0, message).max(Number.MAX_SAFE_INTEGER, message);
  fieldKinds.add(n, { fieldKind: 'int8' });
  return n;
}

/** The page number and size of every paged request (`{ current, size }`). */
export const pageCurrent = () => queryInt4({ min: 1, max: 1_000_000, message: '页码应为1到1000000之间的整数' });
export const pageSize = (max = 200) => queryInt4({ min: 1, max, message: `每页条数应为1到${max}之间的整数` });

/** `YYYY-MM-DD` between `min` and `max` (inclusive); `message` for a malformed or impossible date (2024-02-30). */
export function dateString(
  message = '日期格式不正确',
  { min = DATE_MIN, max = DATE_MAX }: { min?: string; max?: string } = {},
) {
  const s = z
    .string(message)
    .trim()
    .max(10, message)
    .refine((v) => parseIsoDate(v) !== null, message)
    .refine((v) => parseIsoDate(v) === null || (v >= min && v <= max), `日期须在${min}至${max}之间`);
  fieldKinds.add(s, { fieldKind: 'date' });
  return s;
}

/** A date entered about a patient: 1900-01-01 … 2100-12-31. */
export function clinicalDate(message = '日期格式不正确') {
  return dateString(message, { min: CLINICAL_DATE_MIN, max: CLINICAL_DATE_MAX });
}

const INSTANT = /^(\d{4})-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)?(?:Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * An ISO 8601 instant (`2026-11-22T00:00:00.000Z`, with an offset, or a bare date) in years 0001 … 9999 (what
 * `timestamptz` and JavaScript's Date both read the same way).
 */
export function instantString(message = '时间格式不正确') {
  const s = z
    .string(message)
    .trim()
    .max(40, message)
    .refine((v) => {
      const m = INSTANT.exec(v);
      return m !== null && Number(m[1]) >= 1 && parseIsoDate(v.slice(0, 10)) !== null && !Number.isNaN(Date.parse(v));
    }, message);
  fieldKinds.add(s, { fieldKind: 'instant' });
  return s;
}

/** A uuid id (any version: PostgreSQL's `uuid` reads every 8-4-4-4-12 hex form). */
export const uuidString = (message: string) => z.guid(message);

/** The zod field of a chosen password (length and common list; the username is checked where it is known). */
export function chosenPasswordField(label = '新密码') {
  return z.string().superRefine((value, ctx) => {
    const problem = passwordProblem(value, null, label);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
}
