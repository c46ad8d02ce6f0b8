import fc from 'fast-check';
import { PATIENT_GENDERS, PATIENT_STATUSES, type PatientStatus } from '../../contracts/patient-codes';
import { addDays, TASK_STATUSES } from '../../followup/schedule';
import {
  DEFAULT_MISSING_CODES,
  type Definition,
  type FieldDefinition,
  type FieldType,
  type FormDefinition,
} from '../../forms/definition';
import { cohortForms, type CohortField, type CohortForm, type CohortForms } from '../check';
import { COHORT_FOLLOWUP_STATUSES, COHORT_PATIENT_ATTRS, type CohortOp } from '../cohort-codes';
import type {
  CohortDefinition,
  CohortFieldCondition,
  CohortGroup,
  CohortItem,
  CohortPatientCondition,
  CohortRowCondition,
  CohortValue,
} from '../definition';
import type { CohortRecord, CohortSubject, CohortTask } from '../evaluate';
import {
  FIELD_KIND_OPS,
  PATIENT_ATTR_OPS,
  fieldOperand,
  fieldSearchKind,
  patientOperand,
  type OperandKind,
} from '../operators';

/**
 * fast-check generators for the cohort's property tests and for the server's "SQL selects what the evaluator
 * accepts" test: a random small form definition (every field type, repeating and not), random patients over it
 * (records as stored: values, blanks of every kind, a missing-data code, several instances of a repeating form),
 * and random VALID cohort definitions over it (each passes the schema and `checkCohort`).
 *
 * Values are drawn from small pools shared by the data and the conditions, so that conditions hit as often as they
 * miss; dates lie around `COHORT_TODAY`, which the tests pass as `today`. Records are raw stored data (written
 * straight to `form_records` by a SQL test, not saved through the record engine, which would compute the calcs).
 */

export const COHORT_TODAY = '2026-03-15';
export const COHORT_CENTER_IDS = [
  '00000000-0000-4000-8000-0000000000c1',
  '00000000-0000-4000-8000-0000000000c2',
  '00000000-0000-4000-8000-0000000000c3',
] as const;
export const COHORT_SUB_PROJECT_IDS = [
  '00000000-0000-4000-8000-0000000000a1',
  '00000000-0000-4000-8000-0000000000a2',
] as const;
/** The dictionary code of generated dict fields (a SQL test that publishes the definition creates it). */
export const COHORT_DICT_CODE = 'cohort_test';

const DATES = ['2019-12-31', '2020-01-01', '2020-02-29', '2020-03-01', '2021-06-15', '2026-03-15', '2026-04-14'];
const BIRTH_DATES = ['1950-02-28', '1960-02-29', '1980-03-01', '2000-06-15', '2020-03-01'];
const NUMBERS = [-1, 0, 1.5, 10, 1000, 1000.5, 1001];
const INTEGERS = [-1, 0, 10, 1000, 1001];
const TEXTS = ['NT-proBNP', 'nt-probnp', 'abc', 'ABC def', '中文', '%_', 'a'];
const CODES = ['a', 'b', 'c'];
const PARTIAL_DATES = ['2020', '2020-02', '2020-02-29', '2021', '2019-12'];
const MISSING = DEFAULT_MISSING_CODES[0]?.code ?? 'NA';

/** The field types a generated form draws from: all that hold data (layout fields add nothing to search). */
const TYPES: FieldType[] = [
  'integer',
  'decimal',
  'calc',
  'date',
  'datetime',
  'partialDate',
  'text',
  'textarea',
  'radio',
  'dict',
  'yesno',
  'checkbox',
  'file',
  'richtext',
];

function fieldOf(key: string, type: FieldType): FieldDefinition {
  const base = { key, label: `字段${key}`, type };
  switch (type) {
    case 'radio':
    case 'checkbox':
      return { ...base, options: CODES.map((code) => ({ code, label: `选项${code}` })) };
    case 'dict':
      return { ...base, dictCode: COHORT_DICT_CODE };
    case 'calc':
      return { ...base, formula: '1' };
    default:
      return base;
  }
}

/** A group field (a table inside the record) with these column types; its columns' keys are `<key>_<n>`. */
function groupOf(key: string, types: readonly FieldType[]): FieldDefinition {
  return {
    key,
    label: `表格${key}`,
    type: 'group',
    fields: types.map((type, j) => {
      const column = fieldOf(`${key}_${j + 1}`, type);
      return { ...column, type: column.type as Exclude<FieldType, 'group'> };
    }),
  };
}

/**
 * A definition of 1–3 forms (repeating or not), each with a few fields, one searchable at least, and at times a
 * group field (a table) of 1–3 columns, one searchable at least.
 */
export const cohortFormDefinitionArb: fc.Arbitrary<Definition> = fc
  .array(
    fc.record({
      repeating: fc.boolean(),
      types: fc.tuple(
        fc.constantFrom(...TYPES.filter((t) => fieldSearchKind(t) !== null)),
        fc.array(fc.constantFrom(...TYPES), { maxLength: 5 }),
      ),
      group: fc.option(
        fc.tuple(
          fc.constantFrom(...TYPES.filter((t) => fieldSearchKind(t) !== null)),
          fc.array(fc.constantFrom(...TYPES), { maxLength: 2 }),
        ),
        { nil: null },
      ),
    }),
    { minLength: 1, maxLength: 3 },
  )
  .map((specs) => ({
    categories: [
      {
        key: 'c1',
        title: '分类',
        forms: specs.map((spec, i): FormDefinition => ({
          key: `form${i + 1}`,
          title: `表单${i + 1}`,
          ...(spec.repeating ? { repeating: true } : {}),
          fields: [
            ...[spec.types[0], ...spec.types[1]].map((type, j) => fieldOf(`f${i + 1}_${j + 1}`, type)),
            ...(spec.group ? [groupOf(`g${i + 1}`, [spec.group[0], ...spec.group[1]])] : []),
          ],
        })),
      },
    ],
    missingCodes: DEFAULT_MISSING_CODES,
  }));

/** The same, as the cohort sees it. */
export const cohortFormsArb: fc.Arbitrary<CohortForm[]> = cohortFormDefinitionArb.map(cohortForms);

/** A stored value of a field's type (not blank). */
function valueArb(type: FieldType): fc.Arbitrary<unknown> {
  switch (type) {
    case 'integer':
      return fc.constantFrom(...INTEGERS);
    case 'decimal':
    case 'calc':
      return fc.constantFrom(...NUMBERS);
    case 'date':
      return fc.constantFrom(...DATES);
    case 'datetime':
      return fc.tuple(fc.constantFrom(...DATES), fc.constantFrom('T00:00', 'T23:59')).map(([d, t]) => d + t);
    case 'partialDate':
      return fc.constantFrom(...PARTIAL_DATES);
    case 'text':
    case 'textarea':
      return fc.constantFrom(...TEXTS);
    case 'radio':
    case 'dict':
      return fc.constantFrom(...CODES);
    case 'yesno':
      return fc.constantFrom('1', '0');
    case 'checkbox':
      return fc.subarray(CODES, { minLength: 1 });
    case 'file':
      return fc.constant([{ fileId: '00000000-0000-4000-8000-0000000000f1', name: 'a.pdf' }]);
    default:
      return fc.constant('<p>a</p>');
  }
}

/**
 * A field's stored value: mostly a value, else a blank of each kind or a missing-data code. A group's: 0–3 rows of
 * its columns, at times with a row that is no object.
 */
function storedArb(field: CohortField): fc.Arbitrary<unknown> {
  if (field.type === 'group')
    return fc.oneof(
      { weight: 6, arbitrary: fc.array(dataArb(field.columns ?? []), { maxLength: 3 }) },
      { weight: 1, arbitrary: fc.constantFrom(undefined, null, [], MISSING, ['x'], [null]) },
    );
  return fc.oneof(
    { weight: 6, arbitrary: valueArb(field.type) },
    { weight: 1, arbitrary: fc.constantFrom(undefined, null, '', []) },
    { weight: 1, arbitrary: fc.constant(MISSING) },
  );
}

function dataArb(fields: readonly CohortField[]): fc.Arbitrary<Record<string, unknown>> {
  return fc.tuple(...fields.map(storedArb)).map((values) => {
    const data: Record<string, unknown> = {};
    fields.forEach((f, i) => {
      if (values[i] !== undefined) data[f.key] = values[i];
    });
    return data;
  });
}

function recordsArb(form: CohortForm): fc.Arbitrary<CohortRecord[]> {
  return form.repeating
    ? fc.array(dataArb(form.fields), { maxLength: 3 }).map((rows) => rows.map((data, i) => ({ instance: i + 1, data })))
    : fc.option(dataArb(form.fields), { nil: null }).map((data) => (data === null ? [] : [{ instance: 1, data }]));
}

const taskArb: fc.Arbitrary<CohortTask> = fc
  .record({
    status: fc.constantFrom(...TASK_STATUSES),
    start: fc.integer({ min: -20, max: 20 }),
    length: fc.integer({ min: 0, max: 10 }),
  })
  .map(({ status, start, length }) => ({
    status,
    windowStart: addDays(COHORT_TODAY, start),
    windowEnd: addDays(COHORT_TODAY, start + length),
  }));

/** A patient with records of the given forms and follow-up tasks around `COHORT_TODAY`. */
export function cohortSubjectArb(forms: CohortForms): fc.Arbitrary<CohortSubject> {
  return fc.record({
    patient: fc.record({
      centerId: fc.constantFrom(...COHORT_CENTER_IDS),
      subProjectId: fc.option(fc.constantFrom(...COHORT_SUB_PROJECT_IDS), { nil: null }),
      enrolDate: fc.option(fc.constantFrom(...DATES), { nil: null }),
      status: fc.constantFrom<PatientStatus>(...PATIENT_STATUSES),
      sex: fc.option(fc.constantFrom<string>(...PATIENT_GENDERS), { nil: null }),
      birthDate: fc.option(fc.constantFrom(...BIRTH_DATES), { nil: null }),
      deathDate: fc.option(fc.constantFrom(...DATES), { nil: null, freq: 4 }),
    }),
    forms: fc
      .tuple(...forms.map(recordsArb))
      .map((lists) => Object.fromEntries(forms.map((f, i) => [f.key, lists[i] ?? []]))),
    followup: fc.record({ lost: fc.boolean(), tasks: fc.array(taskArb, { maxLength: 3 }) }),
  });
}

const sortedPair = <T extends number | string>(arb: fc.Arbitrary<T>): fc.Arbitrary<[T, T]> =>
  fc.tuple(arb, arb).map(([a, b]) => (a <= b ? [a, b] : [b, a]));

/** A valid operand of this kind (codes: the field's options when it has them). */
function operandArb(kind: OperandKind, options?: readonly string[]): fc.Arbitrary<CohortValue | undefined> {
  const codes = options && options.length > 0 ? options : CODES;
  switch (kind) {
    case 'none':
    case 'otherDate':
      return fc.constant(undefined);
    case 'number':
      return fc.constantFrom(...NUMBERS);
    case 'numberRange':
      return sortedPair(fc.constantFrom(...NUMBERS));
    case 'age':
      return fc.constantFrom(0, 5, 6, 20, 40, 70);
    case 'ageRange':
      return sortedPair(fc.constantFrom(0, 5, 6, 20, 40, 70));
    case 'date':
      return fc.constantFrom(...DATES);
    case 'dateRange':
      return sortedPair(fc.constantFrom(...DATES));
    case 'partialDate':
      return fc.constantFrom(...PARTIAL_DATES);
    case 'text':
      return fc.constantFrom(...TEXTS, 'BNP', 'c d', MISSING);
    case 'code':
      return fc.constantFrom(...codes);
    case 'codes':
      return fc.subarray([...codes], { minLength: 1 });
    case 'ids':
      return fc.subarray([...COHORT_CENTER_IDS, ...COHORT_SUB_PROJECT_IDS], { minLength: 1 });
    case 'statuses':
      return fc.subarray([...PATIENT_STATUSES], { minLength: 1 });
    case 'sexes':
      return fc.subarray([...PATIENT_GENDERS], { minLength: 1 });
  }
}

const patientConditionArb: fc.Arbitrary<CohortPatientCondition> = fc
  .constantFrom(...COHORT_PATIENT_ATTRS)
  .chain((attr) => fc.constantFrom(...PATIENT_ATTR_OPS[attr]).map((op) => ({ attr, op })))
  .chain(({ attr, op }) =>
    operandArb(patientOperand(attr, op) ?? 'none').map((value): CohortPatientCondition => ({
      kind: 'patient',
      attr,
      op,
      ...(value === undefined ? {} : { value }),
    })),
  );

type Located = { formKey: string; field: CohortField };

/**
 * A condition on one of `fields` of form `formKey` (its own fields, or a group's columns inside a row group of the
 * group): the field, operator and operand all valid; `dateFields` are the fields `withinDaysOf` may name.
 */
function rowConditionArb(
  formKey: string,
  candidates: readonly CohortField[],
  dateFields: readonly Located[],
): fc.Arbitrary<CohortRowCondition> | null {
  const fields = candidates.filter((f) => fieldSearchKind(f.type) !== null);
  if (fields.length === 0) return null;
  return fc.constantFrom(...fields).chain((field) => {
    const kind = fieldSearchKind(field.type);
    if (kind === null) throw new Error('unreachable');
    const others = dateFields.filter((o) => !(o.formKey === formKey && o.field.key === field.key));
    const ops = FIELD_KIND_OPS[kind].filter((op: CohortOp) => op !== 'withinDaysOf' || others.length > 0);
    return fc.constantFrom(...ops).chain((op) => {
      const operand = fieldOperand(kind, op) ?? 'none';
      if (operand === 'otherDate')
        return fc
          .record({ other: fc.constantFrom(...others), days: fc.constantFrom(0, 1, 30, 365, 3650) })
          .map(({ other, days }): CohortRowCondition => ({
            fieldKey: field.key,
            op,
            other: { formKey: other.formKey, fieldKey: other.field.key },
            days,
          }));
      return operandArb(operand, field.options).map((value): CohortRowCondition => ({
        fieldKey: field.key,
        op,
        ...(value === undefined ? {} : { value }),
      }));
    });
  });
}

const dateFieldsOf = (formKey: string, fields: readonly CohortField[]): Located[] =>
  fields.filter((field) => fieldSearchKind(field.type) === 'date').map((field) => ({ formKey, field }));

/**
 * Valid cohort definitions over `forms`: groups nested up to 3 levels with up to 3 items each (81 conditions at
 * most), `not` at random, every kind of condition, row groups over a repeating form's records and over a group
 * field's rows (whose `withinDaysOf` may name a column of the same row too).
 */
export function cohortArb(forms: CohortForms): fc.Arbitrary<CohortDefinition> {
  const dateFields: Located[] = forms.flatMap((form) => dateFieldsOf(form.key, form.fields));
  const leaves: fc.Arbitrary<CohortItem>[] = [patientConditionArb];
  leaves.push(fc.constantFrom(...COHORT_FOLLOWUP_STATUSES).map((status): CohortItem => ({ kind: 'followup', status })));
  for (const form of forms) {
    for (const group of form.fields.filter((f) => f.type === 'group')) {
      const columns = group.columns ?? [];
      const inRow = rowConditionArb(form.key, columns, [...dateFields, ...dateFieldsOf(form.key, columns)]);
      if (inRow)
        leaves.push(
          fc
            .array(inRow, { maxLength: 3 })
            .map((conditions): CohortItem => ({ kind: 'rows', formKey: form.key, groupKey: group.key, conditions })),
        );
    }
    const condition = rowConditionArb(form.key, form.fields, dateFields);
    if (!condition) continue;
    leaves.push(condition.map((c): CohortFieldCondition => ({ kind: 'field', formKey: form.key, ...c })));
    if (form.repeating)
      leaves.push(
        fc
          .array(condition, { maxLength: 3 })
          .map((conditions): CohortItem => ({ kind: 'rows', formKey: form.key, conditions })),
      );
  }
  const leaf = fc.oneof(...leaves);
  const groupAt = (level: number): fc.Arbitrary<CohortGroup> =>
    fc
      .record({
        op: fc.constantFrom('and' as const, 'or' as const),
        not: fc.option(fc.boolean(), { nil: undefined }),
        items: fc.array(level < 3 ? fc.oneof(leaf, groupAt(level + 1)) : leaf, { maxLength: 3 }),
      })
      .map(({ op, not, items }): CohortGroup => ({ kind: 'group', op, ...(not === undefined ? {} : { not }), items }));
  return groupAt(1).map((root): CohortDefinition => ({ version: 1, root }));
}

/** Forms, a cohort over them and a few patients: what a "SQL = evaluator" property runs on. */
export const cohortCaseArb = cohortFormsArb.chain((forms) =>
  fc.record({
    forms: fc.constant(forms),
    cohort: cohortArb(forms),
    subjects: fc.array(cohortSubjectArb(forms), { minLength: 1, maxLength: 5 }),
  }),
);
