import type { Definition, FieldDefinition, FormDefinition } from '@registry/shared/forms/definition';
import { DEFAULT_MISSING_CODES } from '@registry/shared/forms/definition';

/** The key of the text field the keystroke benchmark types into. */
export const BENCH_TEXT_KEY = 'bench_text';
/** The key of the number field whose value drives the show-if of many later fields. */
export const BENCH_NUMBER_KEY = 'bench_num';

const OPTIONS = [
  { code: '1', label: '选项一' },
  { code: '2', label: '选项二' },
  { code: '3', label: '选项三' },
];

/**
 * A 300-field form like a large CRF (quality.md P8): mixed types, about a third of the fields with a show-if over
 * earlier fields (a tenth of them over the benchmark's number field), a few calculations and two repeating groups.
 */
export function generateBenchForm(fieldCount = 300): FormDefinition {
  const fields: FieldDefinition[] = [
    { key: BENCH_TEXT_KEY, label: '备注（基准）', type: 'text', maxLength: 200 },
    { key: BENCH_NUMBER_KEY, label: '收缩压（基准）', type: 'integer', unit: 'mmHg', min: 0, max: 400 },
    { key: 'height', label: '身高', type: 'decimal', unit: 'cm', precision: 1, min: 50, max: 250 },
    { key: 'weight', label: '体重', type: 'decimal', unit: 'kg', precision: 1, min: 2, max: 300 },
    {
      key: 'bmi',
      label: 'BMI',
      type: 'calc',
      unit: 'kg/m²',
      precision: 1,
      formula: 'round([weight] / ([height] / 100) ^ 2, 1)',
    },
  ];
  const drivers: { key: string; cond: string }[] = [{ key: BENCH_NUMBER_KEY, cond: `[${BENCH_NUMBER_KEY}] > 100` }];
  let i = 0;
  let lastInteger = BENCH_NUMBER_KEY;
  let lastDecimal = 'weight';
  while (fields.length < fieldCount) {
    i++;
    const n = fields.length;
    const kind = i % 14;
    let field: FieldDefinition;
    if (n % 25 === 0) field = { key: `sec_${i}`, label: `第${i}节`, type: 'section' };
    else if (kind === 0)
      field = { key: `t_${i}`, label: `文本${i}`, type: 'text', maxLength: 100, required: i % 5 === 0 };
    else if (kind === 1)
      field = { key: `n_${i}`, label: `整数${i}`, type: 'integer', min: 0, max: 200, normalLow: 10, normalHigh: 150 };
    else if (kind === 2) field = { key: `d_${i}`, label: `小数${i}`, type: 'decimal', precision: 2, unit: 'mmol/L' };
    else if (kind === 3) field = { key: `r_${i}`, label: `单选${i}`, type: 'radio', options: OPTIONS };
    else if (kind === 4) field = { key: `c_${i}`, label: `多选${i}`, type: 'checkbox', options: OPTIONS };
    else if (kind === 5) field = { key: `y_${i}`, label: `是否${i}`, type: 'yesno' };
    else if (kind === 6) field = { key: `dt_${i}`, label: `日期${i}`, type: 'date', maxDate: 'today' };
    else if (kind === 7) field = { key: `ta_${i}`, label: `多行${i}`, type: 'textarea' };
    else if (kind === 8) field = { key: `pd_${i}`, label: `不完整日期${i}`, type: 'partialDate' };
    else if (kind === 9) field = { key: `dtt_${i}`, label: `日期时间${i}`, type: 'datetime' };
    else if (kind === 10 && i % 3 === 0)
      field = {
        key: `calc_${i}`,
        label: `计算${i}`,
        type: 'calc',
        formula: `sum([${lastInteger}], [${lastDecimal}])`,
        precision: 2,
      };
    else if (kind === 11 && i % 60 === 11)
      field = {
        key: `g_${i}`,
        label: `用药${i}`,
        type: 'group',
        minRows: 0,
        maxRows: 10,
        fields: [
          { key: `g_${i}_name`, label: '药名', type: 'text' },
          { key: `g_${i}_dose`, label: '剂量', type: 'decimal', unit: 'mg' },
          { key: `g_${i}_route`, label: '途径', type: 'radio', options: OPTIONS },
        ],
      };
    else if (kind === 12 && i % 28 === 12) field = { key: `rt_${i}`, label: `富文本${i}`, type: 'richtext' };
    else field = { key: `t_${i}`, label: `文本${i}`, type: 'text', missingCodes: ['NA', 'UNK'] };

    // About a third of the data fields depend on an earlier one; every tenth on the benchmark's number field.
    if (field.type !== 'section' && field.type !== 'calc' && i % 3 === 0 && drivers.length > 0) {
      const driver = i % 10 === 0 ? drivers[0] : drivers[i % drivers.length];
      if (driver) field.showIf = driver.cond;
    }
    if (field.type === 'decimal') lastDecimal = field.key;
    if (field.type === 'integer') lastInteger = field.key;
    if (field.type === 'integer') drivers.push({ key: field.key, cond: `[${field.key}] >= 18` });
    if (field.type === 'yesno') drivers.push({ key: field.key, cond: `[${field.key}] = '1'` });
    if (field.type === 'radio') drivers.push({ key: field.key, cond: `[${field.key}] = '2' or [${field.key}] = '3'` });
    fields.push(field);
  }
  return { key: 'bench_form', title: '基准表单（300字段）', fields };
}

export function generateBenchDefinition(fieldCount = 300): Definition {
  return {
    categories: [{ key: 'bench', title: '基准', forms: [generateBenchForm(fieldCount)] }],
    missingCodes: DEFAULT_MISSING_CODES,
  };
}

/** A plausible half-filled record for the engine figures. */
export function generateBenchRecord(form: FormDefinition): Record<string, unknown> {
  const data: Record<string, unknown> = { [BENCH_NUMBER_KEY]: 120, height: 172, weight: 70.5 };
  form.fields.forEach((field, index) => {
    if (index % 2 === 1 || field.key in data) return;
    if (field.type === 'text' || field.type === 'textarea') data[field.key] = `值${index}`;
    else if (field.type === 'integer') data[field.key] = index % 90;
    else if (field.type === 'decimal') data[field.key] = index / 7;
    else if (field.type === 'radio') data[field.key] = String((index % 3) + 1);
    else if (field.type === 'checkbox') data[field.key] = ['1', '3'];
    else if (field.type === 'yesno') data[field.key] = index % 4 === 0 ? '1' : '0';
    else if (field.type === 'date') data[field.key] = '2025-03-14';
    else if (field.type === 'datetime') data[field.key] = '2025-03-14T08:30';
    else if (field.type === 'partialDate') data[field.key] = '2025-03';
  });
  return data;
}
