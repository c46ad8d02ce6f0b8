import { describe, expect, it } from 'vitest';
import type { CohortField, CohortForms } from '@registry/shared/cohort/check';
import { TEST_FORMS } from '../test-factories';
import { formatCell, resultColumns } from './result-cells';

const SYMPTOMS: CohortField = {
  key: 'sx',
  label: '症状',
  type: 'checkbox',
  options: ['dyspnea', 'edema'],
  optionLabels: ['呼吸困难', '水肿'],
};

describe('formatCell', () => {
  it('shows option codes as their labels, a checkbox joined, an unknown code (a missing-data code) as it is', () => {
    expect(formatCell(SYMPTOMS, ['dyspnea', 'edema'])).toBe('呼吸困难、水肿');
    expect(formatCell(SYMPTOMS, ['NA'])).toBe('NA');
    expect(
      formatCell({ key: 'hf', label: '心衰', type: 'yesno', options: ['1', '0'], optionLabels: ['是', '否'] }, '0'),
    ).toBe('否');
    expect(formatCell({ key: 'n', label: '数', type: 'decimal' }, 9.5)).toBe('9.5');
    expect(formatCell(undefined, null)).toBe('');
  });
});

describe('resultColumns', () => {
  it('turns picked nodes into columns keyed form.field with their definitions, in the order picked', () => {
    const forms: CohortForms = TEST_FORMS;
    const columns = resultColumns(['echo/nyha', 'lab/lb_date'], forms);
    expect(columns.map((c) => [c.key, c.definition?.label, c.formTitle])).toEqual([
      ['echo.nyha', 'NYHA分级', '超声心动图'],
      ['lab.lb_date', '采样日期', '化验'],
    ]);
  });
});
