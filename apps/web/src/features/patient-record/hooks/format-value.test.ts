import { describe, expect, it } from 'vitest';
import type { AnyField } from '@registry/shared/forms/definition';
import { formatValue } from './format-value';

const codes = [{ code: 'UNK', label: '不详' }];

describe('formatValue', () => {
  it('should read values as a person does: labels, units, precision, dates, files, missing codes', () => {
    const decimal: AnyField = {
      key: 'w',
      label: '体重',
      type: 'decimal',
      unit: 'kg',
      precision: 1,
      missingCodes: ['UNK'],
    };
    const radio: AnyField = { key: 's', label: '性别', type: 'radio', options: [{ code: 'F', label: '女' }] };
    const check: AnyField = {
      key: 'c',
      label: '症状',
      type: 'checkbox',
      options: [
        { code: 'a', label: '气促' },
        { code: 'b', label: '水肿' },
      ],
    };
    expect(formatValue(decimal, 70, codes)).toBe('70.0 kg');
    expect(formatValue(decimal, 'UNK', codes)).toBe('不详（UNK）');
    expect(formatValue(decimal, null, codes)).toBe('（空）');
    expect(formatValue(radio, 'F', codes)).toBe('女');
    expect(formatValue({ key: 'y', label: '吸烟', type: 'yesno' }, '0', codes)).toBe('否');
    expect(formatValue(check, ['a', 'b'], codes)).toBe('气促、水肿');
    expect(formatValue({ key: 't', label: '时间', type: 'datetime' }, '2026-03-02T08:30', codes)).toBe(
      '2026-03-02 08:30',
    );
    expect(formatValue({ key: 'f', label: '附件', type: 'file' }, [{ fileId: '1', name: '化验单.jpg' }], codes)).toBe(
      '化验单.jpg',
    );
    expect(formatValue({ key: 'h', label: '现病史', type: 'richtext' }, '<p>咳嗽&nbsp;3天</p>', codes)).toBe(
      '咳嗽 3天',
    );
  });
});
