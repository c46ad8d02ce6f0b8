import { describe, expect, it } from 'vitest';
import type { FieldDefinition, FormDefinition } from './definition';
import { MIGRATION_REASONS, migrateRecordData } from './migrate';

const ctx = { today: '2026-03-15', missingCodes: ['UNK', 'NA'] };
const formOf = (...fields: FieldDefinition[]): FormDefinition => ({ key: 'vitals', title: '生命体征', fields });

const v1 = formOf(
  { key: 'weight', label: '体重', type: 'decimal' },
  { key: 'height', label: '身高', type: 'integer' },
  { key: 'bmi', label: 'BMI', type: 'calc', formula: '[weight] / ([height] / 100) ^ 2', precision: 1 },
  {
    key: 'smoke',
    label: '吸烟',
    type: 'radio',
    options: [
      { code: '1', label: '是' },
      { code: '0', label: '否' },
      { code: '2', label: '已戒烟' },
    ],
  },
  { key: 'note', label: '备注', type: 'text' },
  { key: 'sbp', label: '收缩压', type: 'text' },
  {
    key: 'meds',
    label: '用药',
    type: 'group',
    fields: [
      { key: 'drug', label: '药物', type: 'text' },
      { key: 'dose', label: '剂量', type: 'decimal' },
      { key: 'route', label: '途径', type: 'text' },
    ],
  },
);

// version 2: note removed, sbp became an integer, 已戒烟 removed, BMI now 2 decimals, route removed from the group,
// a new required field, and a new field shown only for smokers
const v2 = formOf(
  { key: 'weight', label: '体重', type: 'decimal', min: 20, max: 300 },
  { key: 'height', label: '身高', type: 'integer' },
  { key: 'bmi', label: 'BMI', type: 'calc', formula: '[weight] / ([height] / 100) ^ 2', precision: 2 },
  {
    key: 'smoke',
    label: '吸烟',
    type: 'radio',
    options: [
      { code: '1', label: '是' },
      { code: '0', label: '否' },
    ],
  },
  { key: 'packs', label: '每日包数', type: 'decimal', showIf: "[smoke] = '1'" },
  { key: 'sbp', label: '收缩压', type: 'integer', unit: 'mmHg' },
  { key: 'nyha', label: 'NYHA', type: 'text', required: true },
  {
    key: 'meds',
    label: '用药',
    type: 'group',
    fields: [
      { key: 'drug', label: '药物', type: 'text' },
      { key: 'dose', label: '剂量', type: 'decimal' },
    ],
  },
);

describe('migrateRecordData', () => {
  it('should carry values by key, convert what converts without loss, and recompute calcs', () => {
    const result = migrateRecordData(v1, v2, { weight: 72.5, height: 170, bmi: 25.1, smoke: '0', sbp: '128' }, ctx);
    expect(result.data).toEqual({ weight: 72.5, height: 170, bmi: 25.09, smoke: '0', sbp: 128 });
    expect(result.lost).toEqual([]);
    expect(result.carried).toBe(4);
    expect(result.recalculated).toEqual([{ path: 'bmi', label: 'BMI', before: 25.1, after: 25.09 }]);
  });

  it('should list what cannot be carried with the reason: a removed field, a removed option, a text that is no number', () => {
    const result = migrateRecordData(v1, v2, { weight: 72.5, smoke: '2', note: '门诊随访', sbp: '偏高' }, ctx);
    expect(result.data).toEqual({ weight: 72.5 });
    expect(result.lost.map((l) => [l.path, l.label, l.value])).toEqual([
      ['smoke', '吸烟', '2'],
      ['note', '备注', '门诊随访'],
      ['sbp', '收缩压', '偏高'],
    ]);
    expect(result.lost.find((l) => l.path === 'note')?.reason).toBe(MIGRATION_REASONS.removed);
    expect(result.lost.find((l) => l.path === 'smoke')?.reason).toMatch(/吸烟/);
    expect(result.lost.find((l) => l.path === 'sbp')?.reason).toMatch(/收缩压/);
  });

  it('should carry group rows cell by cell and list a removed column per row', () => {
    const meds = [
      { drug: '呋塞米', dose: 20, route: '口服' },
      { drug: '螺内酯', dose: 20 },
    ];
    const result = migrateRecordData(v1, v2, { meds }, ctx);
    expect(result.data.meds).toEqual([
      { drug: '呋塞米', dose: 20 },
      { drug: '螺内酯', dose: 20 },
    ]);
    expect(result.lost).toEqual([
      { path: 'meds.0.route', label: '途径', value: '口服', reason: MIGRATION_REASONS.removed },
    ]);
  });

  it('should refuse a value outside the new range and keep the rest', () => {
    const result = migrateRecordData(v1, v2, { weight: 350, height: 170 }, ctx);
    expect(result.data).toEqual({ height: 170 });
    expect(result.lost.map((l) => l.path)).toEqual(['weight']);
    expect(result.lost[0]?.reason).toMatch(/体重/);
  });

  it('should not count a new required field as a loss, nor a missing-data code the new field accepts', () => {
    const withCodes = formOf({ key: 'weight', label: '体重', type: 'decimal', missingCodes: ['UNK'] });
    const result = migrateRecordData(withCodes, withCodes, { weight: 'UNK' }, ctx);
    expect(result).toMatchObject({ data: { weight: 'UNK' }, lost: [], carried: 1 });
    expect(migrateRecordData(v1, v2, { height: 170 }, ctx).lost).toEqual([]);
  });

  it('should be the identity on a record of the same version', () => {
    const data = {
      weight: 72.5,
      height: 170,
      bmi: 25.1,
      smoke: '2',
      meds: [{ drug: '呋塞米', dose: 20, route: '口服' }],
    };
    const result = migrateRecordData(v1, v1, data, ctx);
    expect(result).toMatchObject({ data, lost: [], recalculated: [] });
  });

  it('should list a value whose field the new show-if hides', () => {
    const before = formOf(
      { key: 'smoke', label: '吸烟', type: 'yesno' },
      { key: 'packs', label: '每日包数', type: 'decimal' },
    );
    const after = formOf(
      { key: 'smoke', label: '吸烟', type: 'yesno' },
      { key: 'packs', label: '每日包数', type: 'decimal', showIf: "[smoke] = '1'" },
    );
    const result = migrateRecordData(before, after, { smoke: '0', packs: 2 }, ctx);
    expect(result.data).toEqual({ smoke: '0' });
    expect(result.lost).toEqual([{ path: 'packs', label: '每日包数', value: 2, reason: MIGRATION_REASONS.hidden }]);
  });
});
