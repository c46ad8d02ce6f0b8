import type { AnyField, FormDefinition } from '@registry/shared/forms/definition';
import { YES_NO_OPTIONS } from '@registry/shared/forms/field-types';
import { parseLogic } from '@registry/shared/forms/logic';
import {
  PATIENT_GENDER_LABELS,
  PATIENT_GENDERS,
  PATIENT_STATUS_LABELS,
  PATIENT_STATUSES,
} from '@registry/shared/contracts/patient-codes';
import type { ExportValueMode } from '@registry/shared/contracts/export-codes';
import type { ExportTable, ExportValue, ExportValueLabel, ExportVariable } from './formats/export-table';
import { isIntegerCode } from './formats/syntax-text';

/**
 * What an export writes, decided before a row is read: its tables (one of one row per patient, one per repeating
 * form keyed by patient and instance, one per table field keyed by patient, instance and row) and, for each column,
 * how its value comes from the patient and the stored record. Pure: the job feeds it the rows of a snapshot.
 *
 * De-identification (HIPAA Safe Harbor in spirit, REDCap's "remove identifiers / shift dates" options in shape):
 * - direct identifiers are left out: name, patient number, ID number, phone, hospital number, birth date, cause of
 *   death (free text); PHI-flagged CRF fields (`phi: true`), fields bound to an identity attribute and calculations
 *   reading either (an age from the birth date) too; with `dropFreeText` also text, text-area and rich
 *   text fields; file fields are never exported (documents are not data);
 * - the patient is known by the study pseudonym (`study_id`), kept per patient (export_pseudonyms), so exports agree;
 * - every full date and date-time of the patient moves back by the patient's own kept shift (0–364 days), which keeps
 *   every interval between the patient's dates; a partial date cannot be moved exactly and is left out;
 * - the age at enrolment (from the true dates) is written instead of the birth date, 90 and above as 90.
 */

export type ExportOptions = {
  valueMode: ExportValueMode;
  deidentified: boolean;
  dropFreeText: boolean;
  /** The keys `identifyingKeys` found in the scope's forms (de-identified exports leave them out). */
  identifying?: ReadonlySet<string>;
};

/** A field that identifies the patient: PHI-flagged, or bound to an identity attribute (any but the gender). */
const identifies = (field: AnyField) =>
  field.phi === true || ('binding' in field && field.binding !== undefined && field.binding !== 'patient.gender');

/**
 * The keys of the fields that identify the patient and of every calculation that reads one, transitively (an age
 * computed from a bound birth date is the birth date again, to within a year, and past 89 an identifier).
 */
export function identifyingKeys(fields: readonly AnyField[]): Set<string> {
  const keys = new Set(fields.filter(identifies).map((f) => f.key));
  const calcs = fields.flatMap((f) => {
    if (f.type !== 'calc' || !f.formula) return [];
    const parsed = parseLogic(f.formula);
    return parsed.ok ? [{ key: f.key, refs: parsed.refs.map((r) => r.key) }] : [];
  });
  for (let grew = true; grew;) {
    grew = false;
    for (const c of calcs)
      if (!keys.has(c.key) && c.refs.some((r) => keys.has(r))) {
        keys.add(c.key);
        grew = true;
      }
  }
  return keys;
}

/** A patient as the export reads it (identity decrypted for an identified export; pseudonym for a de-identified one). */
export type ExportPatient = {
  patientNo: string;
  name: string;
  gender: string | null;
  birthDate: string | null;
  hospitalNo: string | null;
  idNumber: string | null;
  phone: string | null;
  centerName: string;
  subProjectName: string | null;
  enrolDate: string | null;
  status: string;
  deathDate: string | null;
  pseudonym: string | null;
  shiftDays: number;
};

/** What a column reads: the patient, the values of the record (or table row) and where in it. */
export type RowContext = {
  patient: ExportPatient;
  /** The form record's stored values by form key (the patient table), or the one record's values. */
  values: Readonly<Record<string, unknown>>;
  instance?: number;
  rowNo?: number;
};

export type PlanColumn = { variable: ExportVariable; read: (row: RowContext) => ExportValue };

/**
 * One table of the export. `source` says where its rows come from: `patients` (one row per patient, the forms'
 * records by key in `values`), `form` (one row per record of a repeating form), or `group` (one row per table row of
 * a group field of a form, repeating or not).
 */
export type PlanTable = {
  table: ExportTable;
  columns: PlanColumn[];
  source:
    | { kind: 'patients'; formKeys: string[] }
    | { kind: 'form'; formKey: string }
    | { kind: 'group'; formKey: string; groupKey: string; repeating: boolean };
};

export type ExportPlan = { tables: PlanTable[] };

/** Option labels of dictionary fields by list code (loaded for the lists the chosen fields use). */
export type DictLabels = ReadonlyMap<string, ReadonlyMap<string, string>>;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const daysInMonth = (y: number, m: number) =>
  m === 2 ? (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31;

/**
 * The days between 1970-01-01 and an ISO date; undefined for anything else, a date off the calendar (2024-02-30) too:
 * Date.UTC would roll it into March. Read once per date of every exported row, so no Date object is made to check.
 */
function dayNumber(date: string): number | undefined {
  const m = ISO_DATE.exec(date);
  if (!m) return undefined;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return undefined;
  return Date.UTC(y, mo - 1, d) / 86_400_000;
}

/** `YYYY-MM-DD` moved back by `days` (calendar days, no time zone involved); null for what is not a date. */
export function shiftDate(date: string, days: number): string | null {
  const n = dayNumber(date);
  if (n === undefined) return null;
  if (days === 0) return date;
  return new Date((n - days) * 86_400_000).toISOString().slice(0, 10);
}

const DATETIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)$/;

/** A date-time `YYYY-MM-DDTHH:MM[:SS]` moved back by `days`, as the exports write it (`YYYY-MM-DD HH:MM:SS`). */
export function shiftDateTime(value: string, days: number): string | null {
  const m = DATETIME.exec(value);
  if (!m) return null;
  const date = shiftDate(m[1]!, days);
  if (date === null) return null;
  return `${date} ${m[2]!.length === 5 ? `${m[2]}:00` : m[2]}`;
}

/** Whole years from `birth` to `at` (both ISO dates); null when either is missing or the order is wrong. */
export function ageAt(birth: string | null, at: string | null): number | null {
  if (!birth || !at || dayNumber(birth) === undefined || dayNumber(at) === undefined) return null;
  const [by, bm, bd] = birth.split('-').map(Number) as [number, number, number];
  const [ay, am, ad] = at.split('-').map(Number) as [number, number, number];
  const age = ay - by - (am < bm || (am === bm && ad < bd) ? 1 : 0);
  return age >= 0 ? age : null;
}

/** Safe Harbor: ages of 90 and over are written as 90. */
export const AGE_TOP = 90;

const codesOf = (labels: Readonly<Record<string, string>>, codes: readonly string[]): ExportValueLabel[] =>
  codes.map((code) => ({ code, label: labels[code] ?? code }));

/** A coded variable: in codes mode typed by its codes (numbers when all are integers) with value labels. */
function codedVariable(
  name: string,
  label: string,
  options: readonly ExportValueLabel[] | undefined,
  mode: ExportValueMode,
): ExportVariable {
  if (mode === 'labels') return { name, label, type: 'string' };
  const numeric = options !== undefined && options.length > 0 && options.every((o) => isIntegerCode(o.code));
  return { name, label, type: numeric ? 'number' : 'string', ...(options?.length ? { valueLabels: options } : {}) };
}

function codedValue(code: unknown, labels: ReadonlyMap<string, string> | undefined, mode: ExportValueMode) {
  if (code === null || code === undefined || code === '') return null;
  const text = typeof code === 'string' ? code : typeof code === 'number' ? String(code) : null;
  if (text === null) return null;
  if (mode === 'labels') return labels?.get(text) ?? text;
  return text;
}

function numberValue(value: unknown): ExportValue {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return null; // blank, or a missing-data code (NA, UNK…) in a number field: missing
}

function textValue(value: unknown): ExportValue {
  if (typeof value === 'string') return value === '' ? null : value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value === 'boolean') return value ? '1' : '0';
  return null;
}

const FREE_TEXT: readonly string[] = ['text', 'textarea', 'richtext'];
/** Most value labels a dictionary field gets in the syntax files (a longer list is written as codes only). */
const MAX_DICT_VALUE_LABELS = 1000;

/** Whether a field is exported at all under the options. */
export function exportsField(field: AnyField, options: ExportOptions): boolean {
  if (field.type === 'section' || field.type === 'description' || field.type === 'file' || field.type === 'group')
    return false;
  if (!options.deidentified) return true;
  // PHI: flagged, or bound to an identity attribute of the patient (the name, ID number… typed into the form; ADR 0010),
  // or a calculation reading one
  if (identifies(field) || options.identifying?.has(field.key)) return false;
  if (field.type === 'partialDate') return false;
  if (options.dropFreeText && FREE_TEXT.includes(field.type)) return false;
  return true;
}

/**
 * The columns of one field (none for layout and file fields or what de-identification drops), reading the field's
 * value with `valueOf`. A checkbox gives one column per option, `<key>___<code>`, 1 ticked / 0 not (REDCap's layout);
 * in labels mode the option's label or 未选; every option is unticked in a record that has none ticked, and missing
 * where there is no record.
 */
export function fieldColumns(
  field: AnyField,
  options: ExportOptions,
  dictLabels: DictLabels,
  recordOf: (row: RowContext) => Readonly<Record<string, unknown>> | undefined,
): PlanColumn[] {
  if (!exportsField(field, options)) return [];
  const valueOf = (row: RowContext) => recordOf(row)?.[field.key];
  const { key, label } = field;
  const mode = options.valueMode;
  const shift = (row: RowContext) => (options.deidentified ? row.patient.shiftDays : 0);
  switch (field.type) {
    case 'integer':
    case 'decimal':
    case 'calc':
      return [
        {
          variable: {
            name: key,
            label,
            type: 'number',
            ...(field.precision !== undefined ? { decimals: field.precision } : {}),
          },
          read: (row) => numberValue(valueOf(row)),
        },
      ];
    case 'date':
      return [
        {
          variable: { name: key, label, type: 'date' },
          read: (row) => {
            const v = valueOf(row);
            return typeof v === 'string' ? shiftDate(v, shift(row)) : null;
          },
        },
      ];
    case 'datetime':
      return [
        {
          variable: { name: key, label, type: 'datetime' },
          read: (row) => {
            const v = valueOf(row);
            return typeof v === 'string' ? shiftDateTime(v, shift(row)) : null;
          },
        },
      ];
    case 'radio':
    case 'yesno':
    case 'dict': {
      const list: readonly ExportValueLabel[] | undefined =
        field.type === 'yesno'
          ? YES_NO_OPTIONS
          : field.type === 'radio'
            ? (field.options ?? [])
            : dictValueLabels(dictLabels.get(field.dictCode ?? ''));
      const labels: ReadonlyMap<string, string> =
        field.type === 'dict'
          ? (dictLabels.get(field.dictCode ?? '') ?? new Map())
          : new Map((list ?? []).map((o) => [o.code, o.label]));
      const variable = codedVariable(key, label, list, mode);
      const numeric = variable.type === 'number'; // decided once: integer codes written as numbers
      return [
        {
          variable,
          read: (row) => {
            const v = codedValue(valueOf(row), labels, mode);
            return v !== null && numeric ? numberValue(v) : v;
          },
        },
      ];
    }
    case 'checkbox':
      return (field.options ?? []).map((option) => ({
        variable:
          mode === 'codes'
            ? {
                name: `${key}___${option.code}`,
                label: `${label}（${option.label}）`,
                type: 'number' as const,
                valueLabels: [
                  { code: '0', label: '未选' },
                  { code: '1', label: '已选' },
                ],
              }
            : { name: `${key}___${option.code}`, label: `${label}（${option.label}）`, type: 'string' as const },
        read: (row) => {
          const values = recordOf(row);
          if (!values) return null; // no record: missing, not unticked
          const v = values[field.key];
          const ticked = Array.isArray(v) && v.map(String).includes(option.code);
          return mode === 'codes' ? (ticked ? 1 : 0) : ticked ? option.label : '未选';
        },
      }));
    default:
      return [{ variable: { name: key, label, type: 'string' }, read: (row) => textValue(valueOf(row)) }];
  }
}

function dictValueLabels(labels: ReadonlyMap<string, string> | undefined): ExportValueLabel[] | undefined {
  if (!labels || labels.size === 0 || labels.size > MAX_DICT_VALUE_LABELS) return undefined;
  return [...labels].map(([code, label]) => ({ code, label }));
}

/** The patient table's own columns. */
function patientColumns(options: ExportOptions): PlanColumn[] {
  const mode = options.valueMode;
  const gender = codesOf(PATIENT_GENDER_LABELS, PATIENT_GENDERS);
  const status = codesOf(PATIENT_STATUS_LABELS, PATIENT_STATUSES);
  const genderLabels = new Map(gender.map((o) => [o.code, o.label]));
  const statusLabels = new Map(status.map((o) => [o.code, o.label]));
  const age = (p: ExportPatient) => {
    const years = ageAt(p.birthDate, p.enrolDate);
    return years !== null && options.deidentified ? Math.min(years, AGE_TOP) : years;
  };
  const date = (value: string | null, p: ExportPatient) =>
    value === null ? null : options.deidentified ? shiftDate(value, p.shiftDays) : value;
  const genderColumn: PlanColumn = {
    variable: codedVariable('gender', '性别', gender, mode),
    read: ({ patient }) => {
      const v = codedValue(patient.gender, genderLabels, mode);
      return v !== null && mode === 'codes' ? Number(v) : v;
    },
  };
  const shared: PlanColumn[] = [
    {
      variable: {
        name: 'age',
        label: options.deidentified ? `入组年龄（岁，${AGE_TOP}岁及以上记为${AGE_TOP}）` : '入组年龄（岁）',
        type: 'number',
        decimals: 0,
      },
      read: ({ patient }) => age(patient),
    },
    { variable: { name: 'center', label: '中心', type: 'string' }, read: ({ patient }) => patient.centerName },
    {
      variable: { name: 'sub_project', label: '子项目', type: 'string' },
      read: ({ patient }) => patient.subProjectName,
    },
    {
      variable: { name: 'enrol_date', label: '入组日期', type: 'date' },
      read: ({ patient }) => date(patient.enrolDate, patient),
    },
    {
      variable: codedVariable('status', '患者状态', status, mode),
      read: ({ patient }) => codedValue(patient.status, statusLabels, mode),
    },
    {
      variable: { name: 'death_date', label: '死亡日期', type: 'date' },
      read: ({ patient }) => date(patient.deathDate, patient),
    },
  ];
  if (options.deidentified) return [...keyColumns(options), genderColumn, ...shared];
  return [
    ...keyColumns(options),
    { variable: { name: 'name', label: '姓名', type: 'string' }, read: ({ patient }) => patient.name },
    genderColumn,
    { variable: { name: 'birth_date', label: '出生日期', type: 'date' }, read: ({ patient }) => patient.birthDate },
    ...shared.slice(0, 1),
    { variable: { name: 'hospital_no', label: '住院号', type: 'string' }, read: ({ patient }) => patient.hospitalNo },
    { variable: { name: 'id_number', label: '证件号码', type: 'string' }, read: ({ patient }) => patient.idNumber },
    { variable: { name: 'phone', label: '联系电话', type: 'string' }, read: ({ patient }) => patient.phone },
    ...shared.slice(1),
  ];
}

/** The column that names the patient in every table: the patient number, or the study pseudonym. */
function keyColumns(options: ExportOptions): PlanColumn[] {
  return options.deidentified
    ? [{ variable: { name: 'study_id', label: '研究编号', type: 'string' }, read: ({ patient }) => patient.pseudonym }]
    : [
        {
          variable: { name: 'patient_no', label: '患者编号', type: 'string' },
          read: ({ patient }) => patient.patientNo,
        },
      ];
}

/** Column names made unique within a table (a field named like a patient column gets `_2`). */
function uniqueNames(columns: PlanColumn[]): PlanColumn[] {
  const taken = new Set<string>();
  return columns.map((c) => {
    let name = c.variable.name;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${c.variable.name}_${n}`;
    taken.add(name.toLowerCase());
    return name === c.variable.name ? c : { ...c, variable: { ...c.variable, name } };
  });
}

/** A form with the chosen fields: `fields` absent keeps all (a chosen group field keeps all its columns). */
export type ChosenForm = { form: FormDefinition; fields?: readonly string[] };

/** The chosen form's own fields the user picked, in the form's order. */
export const chosenFields = (c: ChosenForm) =>
  c.fields ? c.form.fields.filter((f) => c.fields!.includes(f.key)) : c.form.fields;

const recordOrNone = (value: unknown): Readonly<Record<string, unknown>> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
const record = (value: unknown): Readonly<Record<string, unknown>> => recordOrNone(value) ?? {};

/** The plan of an export of these forms under these options. */
export function exportPlan(chosen: readonly ChosenForm[], options: ExportOptions, dictLabels: DictLabels): ExportPlan {
  const patientTable: PlanColumn[] = [...patientColumns(options)];
  const tables: PlanTable[] = [];
  const tableNames = new Set(['patients']);
  const tableName = (wanted: string) => {
    let name = wanted;
    for (let n = 2; tableNames.has(name); n++) name = `${wanted}_${n}`;
    tableNames.add(name);
    return name;
  };
  const extra: PlanTable[] = [];
  for (const c of chosen) {
    const { form } = c;
    const fields = chosenFields(c);
    const repeating = form.repeating === true;
    const own = fields.flatMap((f) =>
      fieldColumns(f, options, dictLabels, (row) => (repeating ? row.values : recordOrNone(row.values[form.key]))),
    );
    if (repeating) {
      const columns = uniqueNames([
        ...keyColumns(options),
        {
          variable: { name: 'instance', label: '记录序号', type: 'number', decimals: 0 },
          read: (r) => r.instance ?? null,
        },
        ...own,
      ]);
      extra.push({
        table: { name: tableName(form.key), label: form.title, variables: columns.map((x) => x.variable) },
        columns,
        source: { kind: 'form', formKey: form.key },
      });
    } else {
      patientTable.push(...own);
    }
    for (const group of fields) {
      if (group.type !== 'group') continue;
      const cols = (group.fields ?? []).flatMap((f) => fieldColumns(f, options, dictLabels, (row) => row.values));
      if (cols.length === 0) continue;
      const columns = uniqueNames([
        ...keyColumns(options),
        ...(repeating
          ? [
              {
                variable: { name: 'instance', label: '记录序号', type: 'number', decimals: 0 },
                read: (r: RowContext) => r.instance ?? null,
              } satisfies PlanColumn,
            ]
          : []),
        { variable: { name: 'row_no', label: '行号', type: 'number', decimals: 0 }, read: (r) => r.rowNo ?? null },
        ...cols,
      ]);
      extra.push({
        table: {
          name: tableName(`${form.key}__${group.key}`),
          label: `${form.title}：${group.label}`,
          variables: columns.map((x) => x.variable),
        },
        columns,
        source: { kind: 'group', formKey: form.key, groupKey: group.key, repeating },
      });
    }
  }
  const patientColumnsUnique = uniqueNames(patientTable);
  tables.push({
    table: { name: 'patients', label: '患者', variables: patientColumnsUnique.map((x) => x.variable) },
    columns: patientColumnsUnique,
    source: { kind: 'patients', formKeys: chosen.filter((c) => c.form.repeating !== true).map((c) => c.form.key) },
  });
  return { tables: [...tables, ...extra] };
}

/** The rows of a group field's table rows in a record's values. */
export function groupRows(values: Readonly<Record<string, unknown>>, groupKey: string): Record<string, unknown>[] {
  const rows = values[groupKey];
  return Array.isArray(rows) ? rows.map(record) : [];
}
