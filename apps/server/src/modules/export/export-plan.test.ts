import { describe, expect, it } from 'vitest';
import type { AnyField, FormDefinition } from '@registry/shared/forms/definition';
import { ageAt, exportPlan, identifyingKeys, shiftDate, shiftDateTime, type ExportOptions } from './export-plan';

/** The export plan's pure rules: date arithmetic, ages, and what a de-identified export leaves out. */

const FIELDS: AnyField[] = [
  { key: 'bd', label: '出生日期', type: 'date', binding: 'patient.birthDate' },
  { key: 'sex', label: '性别', type: 'radio', binding: 'patient.gender', options: [{ code: '1', label: '男' }] },
  { key: 'age_now', label: '年龄', type: 'calc', formula: "datediff([bd], [visit], 'y')" },
  { key: 'age_group', label: '年龄组', type: 'calc', formula: '[age_now] > 60' },
  { key: 'visit', label: '访视日期', type: 'date' },
  { key: 'bmi', label: 'BMI', type: 'calc', formula: '[weight] / 2' },
  { key: 'weight', label: '体重', type: 'decimal' },
  { key: 'addr', label: '住址', type: 'text', phi: true },
  { key: 'born_where', label: '出生地', type: 'partialDate' },
];

describe('identifying fields', () => {
  it('should take bound identity fields, PHI flags and every calculation reading them, transitively', () => {
    expect([...identifyingKeys(FIELDS)].sort()).toEqual(['addr', 'age_group', 'age_now', 'bd']);
  });

  it('should leave them out of a de-identified plan and keep them in an identified one', () => {
    const form: FormDefinition = { key: 'f', title: '表', fields: FIELDS } as FormDefinition;
    const names = (options: ExportOptions) =>
      exportPlan([{ form }], options, new Map()).tables[0]!.table.variables.map((v) => v.name);
    const base = { valueMode: 'codes', dropFreeText: false, identifying: identifyingKeys(FIELDS) } as const;
    const deid = names({ ...base, deidentified: true });
    for (const key of ['bd', 'age_now', 'age_group', 'addr', 'born_where', 'name', 'patient_no', 'birth_date'])
      expect(deid).not.toContain(key);
    expect(deid).toEqual(expect.arrayContaining(['study_id', 'sex', 'visit', 'bmi', 'weight', 'age']));
    expect(names({ ...base, deidentified: false })).toEqual(
      expect.arrayContaining(['patient_no', 'name', 'bd', 'age_now', 'addr', 'born_where']),
    );
  });
});

describe('dates', () => {
  it('should move a date back across month, year and leap-day boundaries', () => {
    expect(shiftDate('2024-03-01', 1)).toBe('2024-02-29');
    expect(shiftDate('2024-01-01', 364)).toBe('2023-01-02');
    expect(shiftDate('2024-01-01', 0)).toBe('2024-01-01');
    expect(shiftDate('2024-02-30', 1)).toBeNull(); // not on the calendar: never rolled into March
    expect(shiftDate('2024/01/01', 1)).toBeNull();
    expect(shiftDateTime('2024-03-01T00:30', 1)).toBe('2024-02-29 00:30:00');
  });

  it('should count whole years of age', () => {
    expect(ageAt('1960-03-02', '2024-03-01')).toBe(63);
    expect(ageAt('1960-03-02', '2024-03-02')).toBe(64);
    expect(ageAt('2024-03-02', '1960-03-02')).toBeNull();
    expect(ageAt(null, '2024-03-02')).toBeNull();
  });
});
