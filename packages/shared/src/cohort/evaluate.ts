import type { PatientStatus } from '../contracts/patient-codes';
import { daysInMonth, diffDays, parseIsoDate, taskState, type TaskStatus } from '../followup/schedule';
import { isBlankValue } from '../forms/values';
import { indexForms, type CohortField, type CohortForms, type FormIndex } from './check';
import type {
  CohortDefinition,
  CohortFieldCondition,
  CohortFollowupCondition,
  CohortGroup,
  CohortItem,
  CohortPatientCondition,
  CohortRowCondition,
  CohortRowGroup,
} from './definition';
import { fieldOperand, fieldSearchKind, isPartialDateValue, patientOperand } from './operators';

/**
 * THE meaning of a cohort definition: whether one patient belongs to it. The server's SQL compiler must select
 * exactly the patients this function accepts (it is property-tested against it over `testing/cohort-arbitraries.ts`).
 * The function is total: it never throws, whatever the definition and the data. A definition `checkCohort` has not
 * passed still evaluates, every condition it cannot make sense of (an unknown form or field, an operator that does
 * not fit the field, a malformed value) being false; such a definition must not be run.
 *
 * Logic: two-valued. Every condition is true or false, never unknown.
 * 1. A group `and` is true when all its items are (an empty `and` is true), `or` when one is (an empty `or` is
 *    false); `not: true` then negates the group's result (so NOT(NOT x) = x and De Morgan's laws hold).
 * 2. Blank (`isBlankValue`: absent, null, '' or []): `empty` is true and `notEmpty` false on a blank value, the
 *    reverse on any other. EVERY other operator is false on a blank value, the negative ones too: `neq`, `notIn`,
 *    `noneOf` on a blank value are false ("sex not in [male]" does not select patients whose sex is not recorded).
 *    `NOT` of a group is the way to ask for "not (x = 1)" including the blanks.
 * 3. A value that is not blank but does not read as the field's kind (a missing-data code such as `NA` in a number
 *    or date field, a value of another type) makes every operator false except `notEmpty`. For text and choice
 *    fields a missing-data code is a string like any other and compares as one.
 *
 * Reading values (a record's `data[fieldKey]`, own properties only):
 * - number (integer, decimal, calc): a finite JSON number (never a numeric string; the record engine stores numbers
 *   as numbers). Compared as numbers; `between [a, b]` is a ≤ x ≤ b.
 * - date, datetime: a string whose first 10 characters are a valid calendar date `YYYY-MM-DD` (year ≥ 0001); a
 *   datetime is compared by its date (the time of day is ignored: `eq 2024-03-01` matches `2024-03-01T23:59`).
 *   Dates compare as calendar dates (= as strings); `before` / `after` are strict, `between` inclusive;
 *   `withinDaysOf` is |this − other| ≤ days in calendar days, both sides read as dates.
 * - partialDate (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`): stands for the span of days from its first to its last day, and a
 *   comparison holds only when it holds for EVERY day of the span: `before d` is last < d, `after d` is first > d,
 *   `between [a, b]` is a ≤ first and last ≤ b. `eq` compares the stored text exactly (`2020-03` eq `2020-03`, not
 *   `2020-03-05`). (Comparing `YYYY-MM-31` instead of the true month end gives the same results against any valid
 *   date, should SQL find that simpler.)
 * - text, textarea: a string. `eq` is exact (case and spaces as stored); `contains` is a literal substring test,
 *   case-insensitive for ASCII letters only (A–Z = a–z; no other folding, no patterns: `%`, `_`, `*` are plain
 *   characters).
 * - radio, dict, yes/no: a string code. `eq` exact; `in` / `notIn` membership of the list.
 * - checkbox: a non-empty array; its string elements are the codes. `anyOf` some listed code is an element, `allOf`
 *   every listed code is an element, `noneOf` no listed code is an element. A non-array (a missing-data code) reads
 *   as nothing.
 *
 * Where a field is read:
 * - A non-repeating form: its instance 1 record; none (not filled yet) reads as a record with no values (all blank).
 * - A repeating form: its live records (instances). A field condition outside a row group holds when SOME record
 *   satisfies it (no record: false, `empty` too). A row group holds when ONE record satisfies all its conditions
 *   (an empty row group: the form has a record). A row group on a non-repeating form, which the checker refuses,
 *   reads its instance 1 as above (so an empty one is always true).
 * - A row group with `groupKey` (a group field, a table inside one record): its rows are the elements of the
 *   group's stored array that are objects (a non-array value, a missing-data code, or a non-object element is no
 *   row), taken from every record the form is read from (instance 1 of a non-repeating form, every live record of a
 *   repeating one). It holds when ONE row satisfies all its conditions, each read from that row (`lb_item` =
 *   NT-proBNP on one row and `lb_value` > 1000 on another do not make it hold); an empty one: some record has a row.
 *   A column's value reads as the same field type outside a group would.
 * - A column outside such a row group (which the checker refuses) is no field: every condition on it is false.
 * - `withinDaysOf`'s other field: on the same row when it is a column of the same group inside a row group with
 *   `groupKey`; on the same record when it is a field of the same form (the row group's form inside a row group,
 *   the row's record inside a row group with `groupKey`); else on any record of its form (exists a pair).
 * Removed records (`deleted_at`) are not in the subject.
 *
 * Patient attributes (the `patients` row): center and sub-project ids compare case-insensitively (as PostgreSQL's
 * uuid); no sub-project (a patient of the parent only), no enrolment date, no sex are blank. `ageAtEnrol` is the
 * completed years from the birth date to the enrolment date: Y(e) − Y(b), minus 1 when (month, day) of the enrolment
 * is before (month, day) of the birth (one born on 29 Feb turns 1 on 1 Mar of a common year); blank when either
 * date is missing or the enrolment is before the birth.
 *
 * Follow-up, on `today` (the Asia/Shanghai calendar date of the question):
 * - due: some task is in its window today (status open, windowStart ≤ today ≤ windowEnd: `taskState` = due);
 * - overdue: some task is open past its window (windowEnd < today);
 * - done: some task is done;
 * - lost: the patient is lost to follow-up as a whole (`patients.followup_lost_at` is set; a single lost task is not);
 * - deceased: the patient's status is `deceased` or a death date is recorded.
 * Each one is independent (a patient with a due and an overdue task is both; the patient list's `due` filter, which
 * excludes the overdue, is another question). Tasks are all the patient's `followup_tasks` rows.
 */

export type CohortPatient = {
  centerId: string;
  subProjectId: string | null;
  enrolDate: string | null;
  status: PatientStatus;
  /** GB/T 2261.1 code (`patients.gender`). */
  sex: string | null;
  birthDate: string | null;
  deathDate: string | null;
};

/** One live record of a form: its instance number and its data (field key → stored value). */
export type CohortRecord = { instance: number; data: Readonly<Record<string, unknown>> };

export type CohortTask = { status: TaskStatus; windowStart: string; windowEnd: string };

export type CohortSubject = {
  patient: CohortPatient;
  /** Live records by form key. */
  forms: Readonly<Record<string, readonly CohortRecord[]>>;
  followup: { lost: boolean; tasks: readonly CohortTask[] };
};

const NO_DATA: Readonly<Record<string, unknown>> = {};

function own(data: unknown, key: string): unknown {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  return Object.prototype.hasOwnProperty.call(data, key) ? (data as Record<string, unknown>)[key] : undefined;
}

function readNumber(raw: unknown): number | null {
  return typeof raw === 'number' && Number.isFinite(raw) ? raw : null;
}

const DATE_PREFIX = /^\d{4}-\d{2}-\d{2}/;

/** A date, or a datetime's date: the first 10 characters when they are a valid calendar date. */
export function readDate(raw: unknown): string | null {
  if (typeof raw !== 'string' || !DATE_PREFIX.test(raw)) return null;
  const day = raw.slice(0, 10);
  return parseIsoDate(day) === null ? null : day;
}

/** The first and last day a partial date stands for. */
export function partialDateSpan(raw: unknown): [string, string] | null {
  if (!isPartialDateValue(raw)) return null;
  if (raw.length === 4) return [`${raw}-01-01`, `${raw}-12-31`];
  if (raw.length === 7) {
    const last = daysInMonth(Number(raw.slice(0, 4)), Number(raw.slice(5, 7)));
    return [`${raw}-01`, `${raw}-${String(last).padStart(2, '0')}`];
  }
  return [raw, raw];
}

/** ASCII-only lower case (A–Z → a–z), the case folding of `contains`. */
export function asciiLower(s: string): string {
  return s.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));
}

/** Completed years from birth to enrolment, or null (see the file's comment). */
export function ageAtEnrol(birthDate: string | null, enrolDate: string | null): number | null {
  const b = birthDate === null ? null : parseIsoDate(birthDate);
  const e = enrolDate === null ? null : parseIsoDate(enrolDate);
  if (!b || !e || (enrolDate as string) < (birthDate as string)) return null;
  const before = e.month < b.month || (e.month === b.month && e.day < b.day);
  return e.year - b.year - (before ? 1 : 0);
}

const strings = (v: unknown): string[] | null =>
  Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : null;
const pair = <T>(v: unknown, is: (x: unknown) => x is T): [T, T] | null =>
  Array.isArray(v) && v.length === 2 && is(v[0]) && is(v[1]) ? [v[0], v[1]] : null;
const isNum = (x: unknown): x is number => typeof x === 'number';
const isStr = (x: unknown): x is string => typeof x === 'string';

function compareNumber(op: string, x: number, value: unknown): boolean {
  if (op === 'between') {
    const r = pair(value, isNum);
    return r !== null && r[0] <= x && x <= r[1];
  }
  if (typeof value !== 'number') return false;
  switch (op) {
    case 'eq':
      return x === value;
    case 'neq':
      return x !== value;
    case 'gt':
      return x > value;
    case 'gte':
      return x >= value;
    case 'lt':
      return x < value;
    case 'lte':
      return x <= value;
    default:
      return false;
  }
}

/** A date (or a partial date's span, first and last day) against a date operand. */
function compareDate(op: string, first: string, last: string, value: unknown): boolean {
  if (op === 'between') {
    const r = pair(value, isStr);
    return r !== null && r[0] <= first && last <= r[1];
  }
  if (typeof value !== 'string') return false;
  switch (op) {
    case 'eq':
      return first === value && last === value;
    case 'before':
      return last < value;
    case 'after':
      return first > value;
    default:
      return false;
  }
}

function compareCodes(op: string, x: string, value: unknown): boolean {
  if (op === 'eq') return x === value;
  const list = strings(value);
  if (list === null) return false;
  if (op === 'in') return list.includes(x);
  if (op === 'notIn') return !list.includes(x);
  return false;
}

type Row = Readonly<Record<string, unknown>>;

/** One field condition on one value (`otherRaw`: the other field's value, for `withinDaysOf`). */
function test(field: CohortField, c: CohortRowCondition, raw: unknown, otherRaw?: unknown): boolean {
  const kind = fieldSearchKind(field.type);
  if (kind === null || fieldOperand(kind, c.op) === null) return false;
  if (c.op === 'empty') return isBlankValue(raw);
  if (c.op === 'notEmpty') return !isBlankValue(raw);
  if (isBlankValue(raw)) return false;
  switch (kind) {
    case 'number': {
      const x = readNumber(raw);
      return x !== null && compareNumber(c.op, x, c.value);
    }
    case 'date': {
      const x = readDate(raw);
      if (x === null) return false;
      if (c.op === 'withinDaysOf') {
        const y = readDate(otherRaw);
        return y !== null && typeof c.days === 'number' && Math.abs(diffDays(x, y)) <= c.days;
      }
      return compareDate(c.op, x, x, c.value);
    }
    case 'partialDate': {
      if (c.op === 'eq') return typeof raw === 'string' && isPartialDateValue(raw) && raw === c.value;
      const span = partialDateSpan(raw);
      return span !== null && compareDate(c.op, span[0], span[1], c.value);
    }
    case 'text': {
      if (typeof raw !== 'string' || typeof c.value !== 'string') return false;
      if (c.op === 'eq') return raw === c.value;
      return c.op === 'contains' && asciiLower(raw).includes(asciiLower(c.value));
    }
    case 'choice':
      return typeof raw === 'string' && compareCodes(c.op, raw, c.value);
    case 'multi': {
      const list = strings(c.value);
      if (!Array.isArray(raw) || list === null) return false;
      const has = (code: string) => raw.some((e) => e === code);
      if (c.op === 'anyOf') return list.some(has);
      if (c.op === 'allOf') return list.every(has);
      if (c.op === 'noneOf') return !list.some(has);
      return false;
    }
  }
}

function compareAge(op: string, age: number, value: unknown): boolean {
  return compareNumber(op, age, value);
}

function patientTest(c: CohortPatientCondition, p: CohortPatient): boolean {
  if (patientOperand(c.attr, c.op) === null) return false;
  let raw: unknown;
  switch (c.attr) {
    case 'center':
      raw = p.centerId;
      break;
    case 'subProject':
      raw = p.subProjectId;
      break;
    case 'enrolDate':
      raw = p.enrolDate;
      break;
    case 'status':
      raw = p.status;
      break;
    case 'sex':
      raw = p.sex;
      break;
    case 'ageAtEnrol':
      raw = ageAtEnrol(p.birthDate, p.enrolDate);
      break;
  }
  if (c.op === 'empty') return isBlankValue(raw);
  if (c.op === 'notEmpty') return !isBlankValue(raw);
  if (isBlankValue(raw) || typeof raw !== (c.attr === 'ageAtEnrol' ? 'number' : 'string')) return false;
  switch (c.attr) {
    case 'center':
    case 'subProject': {
      const list = strings(c.value);
      return (
        list !== null &&
        compareCodes(
          c.op,
          (raw as string).toLowerCase(),
          list.map((s) => s.toLowerCase()),
        )
      );
    }
    case 'status':
    case 'sex':
      return compareCodes(c.op, raw as string, c.value);
    case 'enrolDate': {
      const x = readDate(raw);
      return x !== null && compareDate(c.op, x, x, c.value);
    }
    case 'ageAtEnrol':
      return compareAge(c.op, raw as number, c.value);
  }
}

function followupTest(c: CohortFollowupCondition, s: CohortSubject, today: string): boolean {
  switch (c.status) {
    case 'due':
    case 'overdue':
      return s.followup.tasks.some((t) => taskState(t, today) === c.status);
    case 'done':
      return s.followup.tasks.some((t) => t.status === 'done');
    case 'lost':
      return s.followup.lost;
    case 'deceased':
      return s.patient.status === 'deceased' || s.patient.deathDate !== null;
    default:
      return false;
  }
}

/**
 * Whether `subject` belongs to the cohort `def` on `today` (`YYYY-MM-DD`, Asia/Shanghai). `forms` is the project's
 * published definition as the cohort sees it (`cohortForms`): it tells each field's type and which forms repeat.
 */
export function evaluateCohort(
  def: CohortDefinition,
  forms: CohortForms,
  subject: CohortSubject,
  today: string,
): boolean {
  const index: FormIndex = indexForms(forms);

  /** The records a form's fields are read from (see the file's comment). */
  function rowsOf(formKey: string): readonly Row[] {
    const form = index.get(formKey);
    if (!form) return [];
    const records = subject.forms[formKey] ?? [];
    if (form.form.repeating) return records.map((r) => r.data ?? NO_DATA);
    return [records.find((r) => r.instance === 1)?.data ?? NO_DATA];
  }

  function fieldOf(formKey: string, fieldKey: string): CohortField | undefined {
    return index.get(formKey)?.fields.get(fieldKey);
  }

  /**
   * One condition of form `formKey` on one of its records; inside a row group with `groupKey`, on one row of that
   * group (`group`: the group's columns and the row) of the record.
   */
  function holdsOn(
    formKey: string,
    c: CohortRowCondition,
    record: Row,
    group?: { columns: ReadonlyMap<string, CohortField>; row: Row },
  ): boolean {
    const field = group ? group.columns.get(c.fieldKey) : fieldOf(formKey, c.fieldKey);
    if (!field) return false;
    const raw = own(group ? group.row : record, c.fieldKey);
    if (c.op !== 'withinDaysOf') return test(field, c, raw);
    const other = c.other;
    if (!other) return false;
    if (group && other.formKey === formKey && group.columns.has(other.fieldKey))
      return test(field, c, raw, own(group.row, other.fieldKey));
    if (!fieldOf(other.formKey, other.fieldKey)) return false;
    if (other.formKey === formKey) return test(field, c, raw, own(record, other.fieldKey));
    return rowsOf(other.formKey).some((o) => test(field, c, raw, own(o, other.fieldKey)));
  }

  function fieldHolds(c: CohortFieldCondition): boolean {
    return rowsOf(c.formKey).some((row) => holdsOn(c.formKey, c, row));
  }

  function rowsHold(g: CohortRowGroup): boolean {
    const records = rowsOf(g.formKey);
    if (g.groupKey === undefined)
      return records.some((record) => g.conditions.every((c) => holdsOn(g.formKey, c, record)));
    const group = index.get(g.formKey)?.groups.get(g.groupKey);
    if (!group) return false;
    const { columns } = group;
    return records.some((record) => {
      const rows = own(record, group.field.key);
      if (!Array.isArray(rows)) return false;
      return rows.some(
        (row: unknown) =>
          typeof row === 'object' &&
          row !== null &&
          !Array.isArray(row) &&
          g.conditions.every((c) => holdsOn(g.formKey, c, record, { columns, row: row as Row })),
      );
    });
  }

  function itemHolds(item: CohortItem): boolean {
    switch (item.kind) {
      case 'group':
        return groupHolds(item);
      case 'patient':
        return patientTest(item, subject.patient);
      case 'field':
        return fieldHolds(item);
      case 'rows':
        return rowsHold(item);
      case 'followup':
        return followupTest(item, subject, today);
      default:
        return false;
    }
  }

  function groupHolds(g: CohortGroup): boolean {
    const result = g.op === 'or' ? g.items.some(itemHolds) : g.items.every(itemHolds);
    return g.not === true ? !result : result;
  }

  return groupHolds(def.root);
}
