import { describe, expect, it } from 'vitest';
import { fieldColumn, fixedColumns } from './patient-columns';
import type { ListField } from '../hooks/list-fields';

const nameField: ListField = {
  key: 'name',
  label: '姓名',
  type: 'text',
  formTitle: '人口学资料',
  options: [],
  phi: true,
  missingCodes: [],
  filter: 'text',
};

describe('fieldColumn', () => {
  it('should name the form when a CRF field has the label of a fixed column', () => {
    expect(fixedColumns().some((c) => c.label === '姓名')).toBe(true);
    const column = fieldColumn(nameField, { canSeePhi: true, dictLabels: undefined, sameAsFixed: true });
    expect(column.label).toBe('姓名（人口学资料）');
    expect(column.title).toBe('姓名（人口学资料）');
  });

  it('should keep the field label when no fixed column has it', () => {
    const column = fieldColumn(
      { ...nameField, key: 'bmi', label: '体重指数', phi: false },
      {
        canSeePhi: true,
        dictLabels: undefined,
      },
    );
    expect(column.label).toBe('体重指数');
  });
});

describe('fixedColumns', () => {
  it('should offer the hospital number sort only to a patient.pii holder', () => {
    const hospital = (pii: boolean) => fixedColumns(pii).find((c) => c.key === 'hospitalNo');
    expect(hospital(true)?.sortField).toBe('hospitalNo');
    expect(hospital(false)?.sortField).toBeUndefined();
  });
});
