import { describe, expect, it } from 'vitest';
import type { Definition } from '@registry/shared/forms/definition';
import { buildRecord } from '../test-factories';
import { buildTrends } from './trends';

const definition: Definition = {
  missingCodes: [],
  categories: [
    {
      key: 'c',
      title: '检查',
      forms: [
        {
          key: 'labs',
          title: '实验室检查',
          repeating: true,
          fields: [
            { key: 'lab_date', label: '采样日期', type: 'date' },
            { key: 'cr', label: '肌酐', type: 'decimal', unit: 'μmol/L', normalLow: 44, normalHigh: 133 },
            { key: 'comment', label: '备注', type: 'text' },
          ],
        },
        {
          key: 'vitals',
          title: '生命体征',
          fields: [{ key: 'weight', label: '体重', type: 'decimal' }],
        },
        {
          key: 'bp_log',
          title: '血压记录',
          fields: [
            {
              key: 'bp',
              label: '血压',
              type: 'group',
              fields: [
                { key: 'bp_date', label: '日期', type: 'date' },
                { key: 'sbp', label: '收缩压', type: 'integer', unit: 'mmHg' },
              ],
            },
          ],
        },
      ],
    },
  ],
};

describe('buildTrends', () => {
  it('should place a repeating form’s numbers by its date field, or the record date when that is blank, in date order', () => {
    const series = buildTrends(definition, [
      buildRecord({ id: 'a', formKey: 'labs', instance: 2, data: { lab_date: '2026-05-01', cr: 98 } }),
      buildRecord({ id: 'b', formKey: 'labs', instance: 1, data: { lab_date: '2026-02-01', cr: 150 } }),
      buildRecord({ id: 'c', formKey: 'labs', instance: 3, data: { cr: 90 }, createdAt: '2026-07-09T02:00:00.000Z' }),
      buildRecord({ id: 'd', formKey: 'labs', instance: 4, data: { cr: 'UNK' } }),
    ]);
    expect(series).toHaveLength(1);
    expect(series[0]).toMatchObject({ id: 'labs.cr', label: '肌酐', unit: 'μmol/L', normalLow: 44, normalHigh: 133 });
    expect(series[0]?.dateLabel).toBe('采样日期');
    expect(series[0]?.points.map((p) => [p.at, p.value, p.where, p.recordDate])).toEqual([
      ['2026-02-01', 150, '第1次', false],
      ['2026-05-01', 98, '第2次', false],
      ['2026-07-09', 90, '第3次', true],
    ]);
  });

  it('should chart a group’s numeric column across its rows by the row’s date and leave single-form numbers out', () => {
    const series = buildTrends(definition, [
      buildRecord({ formKey: 'vitals', data: { weight: 70 } }),
      buildRecord({
        id: 'g',
        formKey: 'bp_log',
        data: {
          bp: [{ bp_date: '2026-03-03', sbp: 150 }, { bp_date: '2026-03-01', sbp: 162 }, { bp_date: '2026-03-02' }],
        },
      }),
    ]);
    expect(series.map((s) => s.id)).toEqual(['bp_log.bp.sbp']);
    expect(series[0]?.label).toBe('血压「收缩压」');
    expect(series[0]?.points.map((p) => [p.at, p.value, p.where])).toEqual([
      ['2026-03-01', 162, '第2行'],
      ['2026-03-03', 150, '第1行'],
    ]);
  });
});
