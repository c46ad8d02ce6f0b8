import { describe, expect, it } from 'vitest';
import type { FieldType } from '../forms/definition';
import type { CohortForm } from './check';
import type { CohortDefinition, CohortItem, CohortRowCondition } from './definition';
import { ageAtEnrol, evaluateCohort, type CohortPatient, type CohortRecord, type CohortSubject } from './evaluate';

const TODAY = '2026-03-15';
const CENTER = '00000000-0000-4000-8000-0000000000c1';
const SUB = '00000000-0000-4000-8000-0000000000a1';

const fields = (spec: Record<string, FieldType>, options: Record<string, string[]> = {}) =>
  Object.entries(spec).map(([key, type]) => ({
    key,
    label: key,
    type,
    ...(options[key] ? { options: options[key] } : {}),
  }));

const FORMS: CohortForm[] = [
  {
    key: 'base',
    title: '基线',
    repeating: false,
    fields: fields(
      {
        num: 'decimal',
        int: 'integer',
        calc: 'calc',
        day: 'date',
        at: 'datetime',
        part: 'partialDate',
        text: 'text',
        note: 'textarea',
        choice: 'radio',
        dict: 'dict',
        yn: 'yesno',
        multi: 'checkbox',
        photo: 'file',
      },
      { choice: ['1', '2', '3'], yn: ['1', '0'], multi: ['a', 'b', 'c'] },
    ),
  },
  {
    key: 'labs',
    title: '化验',
    repeating: true,
    fields: fields({ analyte: 'text', value: 'decimal', drawn: 'date' }),
  },
  { key: 'visit', title: '就诊', repeating: true, fields: fields({ seen: 'date' }) },
  {
    key: 'lab',
    title: '检验',
    repeating: false,
    fields: [
      { key: 'lb_date', label: '检验日期', type: 'date' },
      {
        key: 'lb_rows',
        label: '其他检验',
        type: 'group',
        columns: [...fields({ lb_item: 'radio', lb_value: 'decimal', lb_at: 'date' }, { lb_item: ['nt', 'k', 'na'] })],
      },
    ],
  },
  {
    key: 'stay',
    title: '住院',
    repeating: true,
    fields: [{ key: 'meds', label: '用药', type: 'group', columns: fields({ drug: 'text' }) }],
  },
];

const PATIENT: CohortPatient = {
  centerId: CENTER,
  subProjectId: null,
  enrolDate: '2024-05-01',
  status: 'enrolled',
  sex: '1',
  birthDate: '1960-02-29',
  deathDate: null,
};

function subject(over: {
  patient?: Partial<CohortPatient>;
  base?: Record<string, unknown> | null;
  labs?: Record<string, unknown>[];
  visit?: Record<string, unknown>[];
  lab?: Record<string, unknown> | null;
  stay?: Record<string, unknown>[];
  followup?: Partial<CohortSubject['followup']>;
}): CohortSubject {
  const rows = (list: Record<string, unknown>[] = []): CohortRecord[] =>
    list.map((data, i) => ({ instance: i + 1, data }));
  return {
    patient: { ...PATIENT, ...over.patient },
    forms: {
      base: over.base === null || over.base === undefined ? [] : [{ instance: 1, data: over.base }],
      labs: rows(over.labs),
      visit: rows(over.visit),
      lab: over.lab === null || over.lab === undefined ? [] : [{ instance: 1, data: over.lab }],
      stay: rows(over.stay),
    },
    followup: { lost: false, tasks: [], ...over.followup },
  };
}

const def = (...items: CohortItem[]): CohortDefinition => ({ version: 1, root: { kind: 'group', op: 'and', items } });
const run = (d: CohortDefinition, s: CohortSubject) => evaluateCohort(d, FORMS, s, TODAY);

/** Whether a base-form condition holds on a base record holding `stored` in the field. */
function holds(fieldKey: string, c: Omit<CohortRowCondition, 'fieldKey'>, stored: unknown): boolean {
  const base = stored === undefined ? {} : { [fieldKey]: stored };
  return run(def({ kind: 'field', formKey: 'base', fieldKey, ...c }), subject({ base }));
}

const BLANKS: unknown[] = [undefined, null, '', []];

describe('evaluateCohort: numbers', () => {
  it.each([
    ['eq', 10, 10, true],
    ['eq', 10, 10.5, false],
    ['neq', 5, 10, true],
    ['neq', 10, 10, false],
    ['gt', 10, 10, false],
    ['gt', 10, 11, true],
    ['gte', 10, 10, true],
    ['lt', 10, 10, false],
    ['lt', 10, -1, true],
    ['lte', 10, 10, true],
    ['between', [1, 10], 1, true],
    ['between', [1, 10], 10, true],
    ['between', [1, 10], 10.01, false],
  ] as const)('%s %j on %j is %s', (op, value, stored, expected) => {
    expect(holds('num', { op, value: value as number }, stored)).toBe(expected);
    expect(holds('calc', { op, value: value as number }, stored)).toBe(expected);
  });

  it('reads only JSON numbers: a numeric string or a missing-data code makes every comparison false', () => {
    expect(holds('num', { op: 'eq', value: 10 }, '10')).toBe(false);
    for (const op of ['eq', 'neq', 'gt', 'lt'] as const) expect(holds('num', { op, value: 5 }, 'NA')).toBe(false);
    expect(holds('num', { op: 'notEmpty' }, 'NA')).toBe(true);
    expect(holds('num', { op: 'empty' }, 'NA')).toBe(false);
  });

  it('is false on a blank value for every operator but empty, neq included', () => {
    for (const blank of BLANKS) {
      expect(holds('int', { op: 'empty' }, blank)).toBe(true);
      expect(holds('int', { op: 'notEmpty' }, blank)).toBe(false);
      expect(holds('int', { op: 'neq', value: 5 }, blank)).toBe(false);
      expect(holds('int', { op: 'lt', value: 5 }, blank)).toBe(false);
      expect(holds('int', { op: 'between', value: [-1e9, 1e9] }, blank)).toBe(false);
    }
  });
});

describe('evaluateCohort: dates', () => {
  it('compares calendar dates: before and after strict, between inclusive', () => {
    expect(holds('day', { op: 'eq', value: '2024-03-01' }, '2024-03-01')).toBe(true);
    expect(holds('day', { op: 'before', value: '2024-03-01' }, '2024-03-01')).toBe(false);
    expect(holds('day', { op: 'before', value: '2024-03-01' }, '2024-02-29')).toBe(true);
    expect(holds('day', { op: 'after', value: '2024-03-01' }, '2024-03-01')).toBe(false);
    expect(holds('day', { op: 'after', value: '2024-03-01' }, '2024-03-02')).toBe(true);
    expect(holds('day', { op: 'between', value: ['2024-01-01', '2024-03-01'] }, '2024-03-01')).toBe(true);
    expect(holds('day', { op: 'between', value: ['2024-01-01', '2024-03-01'] }, '2023-12-31')).toBe(false);
  });

  it('compares a datetime by its date, ignoring the time of day', () => {
    expect(holds('at', { op: 'eq', value: '2024-03-01' }, '2024-03-01T23:59')).toBe(true);
    expect(holds('at', { op: 'after', value: '2024-03-01' }, '2024-03-01T23:59')).toBe(false);
    expect(holds('at', { op: 'before', value: '2024-03-02' }, '2024-03-01T23:59')).toBe(true);
  });

  it('reads a missing-data code or a blank as no date', () => {
    expect(holds('day', { op: 'before', value: '9999-12-31' }, 'UNK')).toBe(false);
    expect(holds('day', { op: 'notEmpty' }, 'UNK')).toBe(true);
    for (const blank of BLANKS) expect(holds('day', { op: 'after', value: '0001-01-01' }, blank)).toBe(false);
  });

  it('withinDaysOf: |this − other| ≤ days on the same record of the same form', () => {
    const near = (day: unknown, at: unknown, days: number) =>
      run(
        def({
          kind: 'field',
          formKey: 'base',
          fieldKey: 'day',
          op: 'withinDaysOf',
          other: { formKey: 'base', fieldKey: 'at' },
          days,
        }),
        subject({ base: { day, at } }),
      );
    expect(near('2024-03-01', '2024-03-31T08:00', 30)).toBe(true);
    expect(near('2024-03-01', '2024-03-31T08:00', 29)).toBe(false);
    expect(near('2024-03-31', '2024-03-01T08:00', 30)).toBe(true);
    expect(near('2024-03-01', '2024-03-01T00:00', 0)).toBe(true);
    expect(near('2024-03-01', null, 36500)).toBe(false);
    expect(near('NA', '2024-03-01T00:00', 36500)).toBe(false);
  });

  it('withinDaysOf another form: some pair of records (same row inside one repeating form)', () => {
    const within = (c: Partial<CohortRowCondition>, s: CohortSubject) =>
      run(
        def({ kind: 'field', formKey: 'labs', fieldKey: 'drawn', op: 'withinDaysOf', days: 7, ...c } as CohortItem),
        s,
      );
    const s = subject({
      labs: [{ drawn: '2024-01-01' }, { drawn: '2024-06-01' }],
      visit: [{ seen: '2023-01-01' }, { seen: '2024-06-05' }],
    });
    expect(within({ other: { formKey: 'visit', fieldKey: 'seen' } }, s)).toBe(true);
    expect(within({ other: { formKey: 'visit', fieldKey: 'seen' }, days: 3 }, s)).toBe(false);
    // the base form has one record: its day against every lab row
    expect(
      within(
        { other: { formKey: 'base', fieldKey: 'day' } },
        { ...s, forms: { ...s.forms, base: [{ instance: 1, data: { day: '2024-01-08' } }] } },
      ),
    ).toBe(true);
  });
});

describe('evaluateCohort: partial dates (true for every day they may stand for)', () => {
  it('before, after, between against the span of the partial date', () => {
    expect(holds('part', { op: 'before', value: '2020-03-01' }, '2020-02')).toBe(true);
    expect(holds('part', { op: 'before', value: '2020-02-29' }, '2020-02')).toBe(false);
    expect(holds('part', { op: 'before', value: '2020-03-01' }, '2020')).toBe(false);
    expect(holds('part', { op: 'before', value: '2021-01-01' }, '2020')).toBe(true);
    expect(holds('part', { op: 'after', value: '2019-12-31' }, '2020')).toBe(true);
    expect(holds('part', { op: 'after', value: '2020-01-01' }, '2020')).toBe(false);
    expect(holds('part', { op: 'between', value: ['2020-02-01', '2020-02-29'] }, '2020-02')).toBe(true);
    expect(holds('part', { op: 'between', value: ['2020-02-01', '2020-02-28'] }, '2020-02')).toBe(false);
    expect(holds('part', { op: 'between', value: ['2019-02-01', '2019-02-28'] }, '2019-02')).toBe(true);
    expect(holds('part', { op: 'between', value: ['2020-02-15', '2020-02-15'] }, '2020-02-15')).toBe(true);
  });

  it('eq compares the stored text exactly', () => {
    expect(holds('part', { op: 'eq', value: '2020-03' }, '2020-03')).toBe(true);
    expect(holds('part', { op: 'eq', value: '2020-03' }, '2020-03-05')).toBe(false);
    expect(holds('part', { op: 'eq', value: '2020-03-05' }, '2020-03')).toBe(false);
    expect(holds('part', { op: 'eq', value: '2020' }, 'NA')).toBe(false);
  });
});

describe('evaluateCohort: text', () => {
  it('eq is exact; contains is a literal substring, case-insensitive for ASCII letters only', () => {
    expect(holds('text', { op: 'eq', value: 'NT-proBNP' }, 'NT-proBNP')).toBe(true);
    expect(holds('text', { op: 'eq', value: 'nt-probnp' }, 'NT-proBNP')).toBe(false);
    expect(holds('note', { op: 'contains', value: 'bnp' }, 'NT-proBNP')).toBe(true);
    expect(holds('text', { op: 'contains', value: 'PRO' }, 'nt-probnp')).toBe(true);
    expect(holds('text', { op: 'contains', value: '%' }, 'abc')).toBe(false);
    expect(holds('text', { op: 'contains', value: '_' }, 'a_b')).toBe(true);
    expect(holds('text', { op: 'contains', value: 'a.c' }, 'abc')).toBe(false);
    expect(holds('text', { op: 'contains', value: '心衰' }, '慢性心衰')).toBe(true);
    expect(holds('text', { op: 'contains', value: 'é' }, 'É')).toBe(false);
    for (const blank of BLANKS) expect(holds('text', { op: 'contains', value: 'a' }, blank)).toBe(false);
  });
});

describe('evaluateCohort: choices', () => {
  it('eq, in, notIn on codes; notIn is false on a blank value', () => {
    expect(holds('choice', { op: 'eq', value: '1' }, '1')).toBe(true);
    expect(holds('choice', { op: 'in', value: ['1', '2'] }, '2')).toBe(true);
    expect(holds('choice', { op: 'in', value: ['1', '2'] }, '3')).toBe(false);
    expect(holds('choice', { op: 'notIn', value: ['1', '2'] }, '3')).toBe(true);
    expect(holds('yn', { op: 'notIn', value: ['1'] }, '0')).toBe(true);
    expect(holds('dict', { op: 'eq', value: 'HAN' }, 'HAN')).toBe(true);
    for (const blank of BLANKS) expect(holds('choice', { op: 'notIn', value: ['1'] }, blank)).toBe(false);
    // a missing-data code is a code like any other
    expect(holds('choice', { op: 'notIn', value: ['1'] }, 'UNK')).toBe(true);
  });

  it('checkbox: anyOf, allOf, noneOf over the selected codes; noneOf is false on a blank value', () => {
    expect(holds('multi', { op: 'anyOf', value: ['a', 'c'] }, ['b', 'c'])).toBe(true);
    expect(holds('multi', { op: 'anyOf', value: ['a'] }, ['b', 'c'])).toBe(false);
    expect(holds('multi', { op: 'allOf', value: ['b', 'c'] }, ['c', 'a', 'b'])).toBe(true);
    expect(holds('multi', { op: 'allOf', value: ['a', 'b'] }, ['a'])).toBe(false);
    expect(holds('multi', { op: 'noneOf', value: ['a'] }, ['b'])).toBe(true);
    expect(holds('multi', { op: 'noneOf', value: ['a'] }, ['a', 'b'])).toBe(false);
    for (const blank of BLANKS) expect(holds('multi', { op: 'noneOf', value: ['a'] }, blank)).toBe(false);
    expect(holds('multi', { op: 'noneOf', value: ['a'] }, 'NA')).toBe(false);
    expect(holds('multi', { op: 'empty' }, [])).toBe(true);
  });
});

describe('evaluateCohort: where a field is read', () => {
  it('a non-repeating form not filled reads as blank; only its instance 1 counts', () => {
    const empty = def({ kind: 'field', formKey: 'base', fieldKey: 'num', op: 'empty' });
    expect(run(empty, subject({ base: null }))).toBe(true);
    expect(run(def({ kind: 'field', formKey: 'base', fieldKey: 'num', op: 'notEmpty' }), subject({ base: null }))).toBe(
      false,
    );
    const s = subject({});
    s.forms = { ...s.forms, base: [{ instance: 2, data: { num: 5 } }] };
    expect(run(empty, s)).toBe(true);
  });

  it('a repeating form: some record satisfies the condition; with no record nothing does, empty included', () => {
    const high = def({ kind: 'field', formKey: 'labs', fieldKey: 'value', op: 'gt', value: 1000 });
    expect(run(high, subject({ labs: [{ value: 3 }, { value: 1500 }] }))).toBe(true);
    expect(run(high, subject({ labs: [{ value: 3 }] }))).toBe(false);
    const empty = def({ kind: 'field', formKey: 'labs', fieldKey: 'value', op: 'empty' });
    expect(run(empty, subject({ labs: [] }))).toBe(false);
    expect(run(empty, subject({ labs: [{ value: 3 }, {}] }))).toBe(true);
  });

  it('a row group needs ONE record on which all its conditions hold', () => {
    const nt = def({
      kind: 'rows',
      formKey: 'labs',
      conditions: [
        { fieldKey: 'analyte', op: 'eq', value: 'NT-proBNP' },
        { fieldKey: 'value', op: 'gt', value: 1000 },
      ],
    });
    expect(
      run(
        nt,
        subject({
          labs: [
            { analyte: 'NT-proBNP', value: 300 },
            { analyte: 'BNP', value: 1500 },
          ],
        }),
      ),
    ).toBe(false);
    expect(
      run(
        nt,
        subject({
          labs: [
            { analyte: 'BNP', value: 1500 },
            { analyte: 'NT-proBNP', value: 1200 },
          ],
        }),
      ),
    ).toBe(true);
    // the same two conditions side by side, outside a row group, are satisfied by different rows
    const loose = def(
      { kind: 'field', formKey: 'labs', fieldKey: 'analyte', op: 'eq', value: 'NT-proBNP' },
      { kind: 'field', formKey: 'labs', fieldKey: 'value', op: 'gt', value: 1000 },
    );
    expect(
      run(
        loose,
        subject({
          labs: [
            { analyte: 'NT-proBNP', value: 300 },
            { analyte: 'BNP', value: 1500 },
          ],
        }),
      ),
    ).toBe(true);
  });

  it('a row group of a group field needs ONE row of the table on which all its conditions hold', () => {
    const nt = def({
      kind: 'rows',
      formKey: 'lab',
      groupKey: 'lb_rows',
      conditions: [
        { fieldKey: 'lb_item', op: 'eq', value: 'nt' },
        { fieldKey: 'lb_value', op: 'gt', value: 1000 },
      ],
    });
    // NT-proBNP on one row and a value > 1000 on ANOTHER row: no
    expect(
      run(
        nt,
        subject({
          lab: {
            lb_rows: [
              { lb_item: 'nt', lb_value: 300 },
              { lb_item: 'k', lb_value: 4000 },
            ],
          },
        }),
      ),
    ).toBe(false);
    expect(
      run(
        nt,
        subject({
          lab: {
            lb_rows: [
              { lb_item: 'k', lb_value: 4.27 },
              { lb_item: 'nt', lb_value: 1200 },
            ],
          },
        }),
      ),
    ).toBe(true);
    // no table, a table of no object rows, a missing-data code: no row
    for (const lab of [null, {}, { lb_rows: [] }, { lb_rows: 'NA' }, { lb_rows: [null, 'x', ['nt', 1200]] }])
      expect(run(nt, subject({ lab }))).toBe(false);
    // a column of the table is not read off the record, nor a record's field off a row
    expect(run(nt, subject({ lab: { lb_item: 'nt', lb_value: 1200, lb_rows: [{}] } }))).toBe(false);
  });

  it("a group's rows come from every record of a repeating form; an empty row group asks for a row", () => {
    const drug = (conditions: CohortRowCondition[]) =>
      def({ kind: 'rows', formKey: 'stay', groupKey: 'meds', conditions });
    const stays = [{ meds: [{ drug: '阿司匹林' }] }, { meds: [{ drug: '沙库巴曲缬沙坦' }] }];
    expect(run(drug([{ fieldKey: 'drug', op: 'contains', value: '沙坦' }]), subject({ stay: stays }))).toBe(true);
    expect(run(drug([{ fieldKey: 'drug', op: 'contains', value: '华法林' }]), subject({ stay: stays }))).toBe(false);
    expect(run(drug([]), subject({ stay: stays }))).toBe(true);
    expect(run(drug([]), subject({ stay: [{ meds: [] }, {}] }))).toBe(false);
    // empty on a column: some row where it is blank
    expect(run(drug([{ fieldKey: 'drug', op: 'empty' }]), subject({ stay: [{ meds: [{ drug: 'a' }, {}] }] }))).toBe(
      true,
    );
    expect(run(drug([{ fieldKey: 'drug', op: 'empty' }]), subject({ stay: [{ meds: [{ drug: 'a' }] }] }))).toBe(false);
  });

  it('withinDaysOf inside a row group of a group: a column of the same row, or a field of the same record', () => {
    const within = (fieldKey: string) =>
      def({
        kind: 'rows',
        formKey: 'lab',
        groupKey: 'lb_rows',
        conditions: [{ fieldKey: 'lb_at', op: 'withinDaysOf', other: { formKey: 'lab', fieldKey }, days: 2 }],
      });
    const lab = { lb_date: '2024-01-10', lb_rows: [{ lb_at: '2024-01-01' }, { lb_at: '2024-01-11' }] };
    expect(run(within('lb_date'), subject({ lab }))).toBe(true);
    expect(run(within('lb_date'), subject({ lab: { ...lab, lb_date: '2024-02-01' } }))).toBe(false);
  });

  it('a column outside a row group of its group is no field (the checker refuses it): false', () => {
    const lab = { lb_rows: [{ lb_item: 'nt', lb_value: 1200 }] };
    expect(run(def({ kind: 'field', formKey: 'lab', fieldKey: 'lb_value', op: 'notEmpty' }), subject({ lab }))).toBe(
      false,
    );
    expect(run(def({ kind: 'rows', formKey: 'lab', groupKey: 'lb_date', conditions: [] }), subject({ lab }))).toBe(
      false,
    );
  });

  it('an empty row group asks whether the form has a record', () => {
    const any = def({ kind: 'rows', formKey: 'labs', conditions: [] });
    expect(run(any, subject({ labs: [] }))).toBe(false);
    expect(run(any, subject({ labs: [{}] }))).toBe(true);
  });
});

describe('evaluateCohort: groups', () => {
  const yes: CohortItem = { kind: 'patient', attr: 'status', op: 'in', value: ['enrolled'] };
  const no: CohortItem = { kind: 'patient', attr: 'status', op: 'in', value: ['withdrawn'] };
  const s = subject({});

  it('and / or / not, nested; an empty and is true, an empty or false', () => {
    expect(run(def(yes, yes), s)).toBe(true);
    expect(run(def(yes, no), s)).toBe(false);
    expect(run({ version: 1, root: { kind: 'group', op: 'or', items: [no, yes] } }, s)).toBe(true);
    expect(run({ version: 1, root: { kind: 'group', op: 'or', items: [no] } }, s)).toBe(false);
    expect(run({ version: 1, root: { kind: 'group', op: 'and', not: true, items: [yes, no] } }, s)).toBe(true);
    expect(
      run(def(yes, { kind: 'group', op: 'or', items: [no, { kind: 'group', op: 'and', not: true, items: [no] }] }), s),
    ).toBe(true);
    expect(run(def(), s)).toBe(true);
    expect(run({ version: 1, root: { kind: 'group', op: 'or', items: [] } }, s)).toBe(false);
    expect(run({ version: 1, root: { kind: 'group', op: 'or', not: true, items: [] } }, s)).toBe(true);
  });

  it('NOT of a condition that is false on a blank value selects the blanks too', () => {
    const neq: CohortItem = { kind: 'field', formKey: 'base', fieldKey: 'num', op: 'neq', value: 5 };
    const not = def({ kind: 'group', op: 'and', not: true, items: [{ ...neq, op: 'eq' }] });
    expect(run(def(neq), subject({ base: {} }))).toBe(false);
    expect(run(not, subject({ base: {} }))).toBe(true);
    expect(run(not, subject({ base: { num: 5 } }))).toBe(false);
  });
});

describe('evaluateCohort: patient attributes', () => {
  const p = (c: Omit<Extract<CohortItem, { kind: 'patient' }>, 'kind'>, patient: Partial<CohortPatient> = {}) =>
    run(def({ kind: 'patient', ...c }), subject({ patient }));

  it('center and sub-project by id, case-insensitively; no sub-project is blank', () => {
    expect(p({ attr: 'center', op: 'in', value: [CENTER.toUpperCase()] })).toBe(true);
    expect(p({ attr: 'center', op: 'notIn', value: [CENTER] })).toBe(false);
    expect(p({ attr: 'subProject', op: 'notIn', value: [SUB] })).toBe(false);
    expect(p({ attr: 'subProject', op: 'empty' })).toBe(true);
    expect(p({ attr: 'subProject', op: 'in', value: [SUB] }, { subProjectId: SUB })).toBe(true);
    expect(p({ attr: 'subProject', op: 'notIn', value: [CENTER] }, { subProjectId: SUB })).toBe(true);
  });

  it('enrolment date, status and sex', () => {
    expect(p({ attr: 'enrolDate', op: 'after', value: '2024-04-30' })).toBe(true);
    expect(p({ attr: 'enrolDate', op: 'before', value: '2030-01-01' }, { enrolDate: null })).toBe(false);
    expect(p({ attr: 'enrolDate', op: 'empty' }, { enrolDate: null })).toBe(true);
    expect(p({ attr: 'status', op: 'notIn', value: ['deceased', 'withdrawn'] })).toBe(true);
    expect(p({ attr: 'sex', op: 'in', value: ['2'] })).toBe(false);
    expect(p({ attr: 'sex', op: 'notIn', value: ['2'] }, { sex: null })).toBe(false);
    expect(p({ attr: 'sex', op: 'empty' }, { sex: null })).toBe(true);
  });

  it('age at enrolment in completed years (a 29 February birthday counts from 1 March)', () => {
    expect(ageAtEnrol('1960-02-29', '2020-02-28')).toBe(59);
    expect(ageAtEnrol('1960-02-29', '2020-02-29')).toBe(60);
    expect(ageAtEnrol('1960-02-29', '2021-02-28')).toBe(60);
    expect(ageAtEnrol('1960-02-29', '2021-03-01')).toBe(61);
    expect(ageAtEnrol('2000-06-15', '2000-06-15')).toBe(0);
    expect(ageAtEnrol('2000-06-15', '2000-06-14')).toBeNull();
    expect(ageAtEnrol(null, '2000-06-14')).toBeNull();
    expect(p({ attr: 'ageAtEnrol', op: 'gte', value: 64 })).toBe(true);
    expect(p({ attr: 'ageAtEnrol', op: 'eq', value: 64 })).toBe(true);
    expect(p({ attr: 'ageAtEnrol', op: 'between', value: [18, 64] })).toBe(true);
    expect(p({ attr: 'ageAtEnrol', op: 'neq', value: 1 }, { birthDate: null })).toBe(false);
    expect(p({ attr: 'ageAtEnrol', op: 'empty' }, { enrolDate: '1950-01-01' })).toBe(true);
  });
});

describe('evaluateCohort: follow-up', () => {
  const f = (status: 'due' | 'overdue' | 'done' | 'lost' | 'deceased', s: CohortSubject) =>
    run(def({ kind: 'followup', status }), s);
  const task = (status: 'open' | 'done' | 'lost' | 'cancelled', windowStart: string, windowEnd: string) => ({
    status,
    windowStart,
    windowEnd,
  });

  it('due: an open task whose window holds today (edges included); overdue: an open task past its window', () => {
    expect(f('due', subject({ followup: { tasks: [task('open', TODAY, TODAY)] } }))).toBe(true);
    expect(f('due', subject({ followup: { tasks: [task('open', '2026-03-16', '2026-03-20')] } }))).toBe(false);
    expect(f('overdue', subject({ followup: { tasks: [task('open', '2026-03-01', '2026-03-14')] } }))).toBe(true);
    expect(f('overdue', subject({ followup: { tasks: [task('open', '2026-03-01', TODAY)] } }))).toBe(false);
    expect(f('overdue', subject({ followup: { tasks: [task('cancelled', '2026-03-01', '2026-03-02')] } }))).toBe(false);
    const both = subject({
      followup: { tasks: [task('open', '2026-03-01', '2026-03-02'), task('open', TODAY, TODAY)] },
    });
    expect(f('due', both) && f('overdue', both)).toBe(true);
  });

  it('done: a done task; lost: the patient as a whole; deceased: status or death date', () => {
    expect(f('done', subject({ followup: { tasks: [task('done', '2026-01-01', '2026-01-02')] } }))).toBe(true);
    expect(f('done', subject({ followup: { tasks: [task('lost', '2026-01-01', '2026-01-02')] } }))).toBe(false);
    expect(f('lost', subject({ followup: { lost: true } }))).toBe(true);
    expect(f('lost', subject({ followup: { tasks: [task('lost', '2026-01-01', '2026-01-02')] } }))).toBe(false);
    expect(f('deceased', subject({ patient: { status: 'deceased' } }))).toBe(true);
    expect(f('deceased', subject({ patient: { deathDate: '2025-01-01' } }))).toBe(true);
    expect(f('deceased', subject({}))).toBe(false);
  });
});

describe('evaluateCohort: a definition the checker would refuse', () => {
  it('is false on an unknown form or field, an unsearchable field or an operator that does not fit', () => {
    const s = subject({ base: { num: 5, photo: [{ fileId: 'x', name: 'a' }] }, labs: [{ value: 5 }] });
    expect(run(def({ kind: 'field', formKey: 'nope', fieldKey: 'num', op: 'notEmpty' }), s)).toBe(false);
    expect(run(def({ kind: 'field', formKey: 'base', fieldKey: 'nope', op: 'empty' }), s)).toBe(false);
    expect(run(def({ kind: 'field', formKey: 'base', fieldKey: 'photo', op: 'notEmpty' }), s)).toBe(false);
    expect(run(def({ kind: 'field', formKey: 'base', fieldKey: 'num', op: 'contains', value: '5' }), s)).toBe(false);
    expect(run(def({ kind: 'field', formKey: 'base', fieldKey: 'constructor', op: 'notEmpty' }), s)).toBe(false);
  });
});
