import { describe, expect, it } from 'vitest';
import type { FormDefinition } from '@registry/shared/forms/definition';
import { pathLabel, removePaths, setKey, topKey } from './crf-paths';

const form: FormDefinition = {
  key: 'baseline',
  title: '基线',
  fields: [
    { key: 'weight', label: '体重', type: 'decimal' },
    {
      key: 'meds',
      label: '用药',
      type: 'group',
      fields: [
        { key: 'drug', label: '药名', type: 'text' },
        { key: 'dose', label: '剂量', type: 'decimal' },
      ],
    },
  ],
};

describe('crf paths', () => {
  it('should remove top-level values and single group cells without touching the input when paths are cleared', () => {
    const data = {
      weight: 70,
      meds: [
        { drug: 'A', dose: 1 },
        { drug: 'B', dose: 2 },
      ],
      note: 'x',
    };
    const next = removePaths(data, ['weight', 'meds.1.dose']);
    expect(next).toEqual({ meds: [{ drug: 'A', dose: 1 }, { drug: 'B' }], note: 'x' });
    expect(data.weight).toBe(70);
    expect(data.meds[1]).toEqual({ drug: 'B', dose: 2 });
  });

  it('should ignore a cell path whose row does not exist when clearing', () => {
    const data = { meds: [{ drug: 'A' }] };
    expect(removePaths(data, ['meds.5.drug', 'meds.x.drug'])).toEqual({ meds: [{ drug: 'A' }] });
  });

  it('should drop the key when a value is set to undefined', () => {
    expect(setKey({ a: 1, b: 2 }, 'a', undefined)).toEqual({ b: 2 });
    expect(setKey({ a: 1 }, 'b', 'x')).toEqual({ a: 1, b: 'x' });
  });

  it('should name a cell by its group, row and column when a path is labelled', () => {
    expect(pathLabel(form, 'weight')).toBe('体重');
    expect(pathLabel(form, 'meds.0.dose')).toBe('用药 第1行「剂量」');
    expect(pathLabel(form, 'unknown')).toBe('unknown');
    expect(topKey('meds.0.dose')).toBe('meds');
  });
});
