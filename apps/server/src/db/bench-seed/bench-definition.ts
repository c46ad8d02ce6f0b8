import { DEFAULT_MISSING_CODES, type Definition, type FieldOption } from '@registry/shared/forms/definition';

/**
 * The CRF of the benchmark project (quality.md, "Data set"): 41 fields in five forms, like a cardiology registry —
 * demographics, vital signs with a BMI calculation, history choices with show-ifs, laboratory values with a repeating
 * group of lab rows, and a repeating follow-up visit. Choices only (no dictionary fields), so the data needs no
 * reference data beyond the definition itself.
 */

const YES_NO_UNK: FieldOption[] = [
  { code: '1', label: '是' },
  { code: '0', label: '否' },
  { code: '9', label: '不详' },
];

export const BENCH_GENDER_OPTIONS: FieldOption[] = [
  { code: '1', label: '男' },
  { code: '2', label: '女' },
];
export const BENCH_EDUCATION_OPTIONS: FieldOption[] = [
  { code: '1', label: '小学及以下' },
  { code: '2', label: '初中' },
  { code: '3', label: '高中/中专' },
  { code: '4', label: '大专及以上' },
];
export const BENCH_MARITAL_OPTIONS: FieldOption[] = [
  { code: '1', label: '未婚' },
  { code: '2', label: '已婚' },
  { code: '3', label: '离异' },
  { code: '4', label: '丧偶' },
];
export const BENCH_INSURANCE_OPTIONS: FieldOption[] = [
  { code: 'urban', label: '城镇职工医保' },
  { code: 'resident', label: '城乡居民医保' },
  { code: 'commercial', label: '商业保险' },
  { code: 'self', label: '自费' },
];
export const BENCH_COMORBIDITY_OPTIONS: FieldOption[] = [
  { code: 'htn', label: '高血压' },
  { code: 'dm', label: '糖尿病' },
  { code: 'af', label: '心房颤动' },
  { code: 'cad', label: '冠心病' },
  { code: 'ckd', label: '慢性肾脏病' },
  { code: 'copd', label: '慢性阻塞性肺疾病' },
  { code: 'stroke', label: '脑卒中' },
];
export const BENCH_DIAGNOSIS_OPTIONS: FieldOption[] = [
  { code: 'hfref', label: '射血分数降低的心衰' },
  { code: 'hfmref', label: '射血分数轻度降低的心衰' },
  { code: 'hfpef', label: '射血分数保留的心衰' },
];
export const BENCH_NYHA_OPTIONS: FieldOption[] = [
  { code: '1', label: 'I级' },
  { code: '2', label: 'II级' },
  { code: '3', label: 'III级' },
  { code: '4', label: 'IV级' },
];
export const BENCH_LAB_ITEMS: { code: string; label: string; unit: string; low: number; high: number }[] = [
  { code: 'hb', label: '血红蛋白', unit: 'g/L', low: 90, high: 170 },
  { code: 'wbc', label: '白细胞', unit: '10^9/L', low: 3, high: 12 },
  { code: 'plt', label: '血小板', unit: '10^9/L', low: 100, high: 350 },
  { code: 'k', label: '血钾', unit: 'mmol/L', low: 3.2, high: 5.5 },
  { code: 'na', label: '血钠', unit: 'mmol/L', low: 130, high: 148 },
  { code: 'alt', label: '谷丙转氨酶', unit: 'U/L', low: 8, high: 80 },
  { code: 'tc', label: '总胆固醇', unit: 'mmol/L', low: 2.8, high: 7.5 },
  { code: 'ldl', label: '低密度脂蛋白胆固醇', unit: 'mmol/L', low: 1.2, high: 5 },
];
export const BENCH_VITAL_STATUS_OPTIONS: FieldOption[] = [
  { code: '1', label: '存活' },
  { code: '2', label: '死亡' },
  { code: '3', label: '失访' },
];

export const BENCH_FORM_KEYS = {
  demographics: 'bench_demographics',
  vitals: 'bench_vitals',
  history: 'bench_history',
  labs: 'bench_labs',
  followUp: 'bench_followup',
} as const;

export const BENCH_DEFINITION: Definition = {
  missingCodes: DEFAULT_MISSING_CODES,
  categories: [
    {
      key: 'baseline',
      title: '基线资料',
      forms: [
        {
          key: BENCH_FORM_KEYS.demographics,
          title: '人口学资料',
          fields: [
            { key: 'dm_name', label: '姓名', type: 'text', required: true, phi: true, maxLength: 50 },
            {
              key: 'dm_gender',
              label: '性别',
              type: 'radio',
              options: BENCH_GENDER_OPTIONS,
              required: true,
              listColumn: true,
            },
            { key: 'dm_birth_date', label: '出生日期', type: 'date', required: true, phi: true, maxDate: 'today' },
            { key: 'dm_education', label: '文化程度', type: 'radio', options: BENCH_EDUCATION_OPTIONS },
            { key: 'dm_marital', label: '婚姻状况', type: 'radio', options: BENCH_MARITAL_OPTIONS },
            { key: 'dm_occupation', label: '职业', type: 'text', maxLength: 50, missingCodes: ['UNK'] },
            { key: 'dm_insurance', label: '医保类型', type: 'radio', options: BENCH_INSURANCE_OPTIONS },
            { key: 'dm_address', label: '家庭住址', type: 'textarea', phi: true, maxLength: 200 },
          ],
        },
        {
          key: BENCH_FORM_KEYS.vitals,
          title: '生命体征',
          fields: [
            { key: 'vs_date', label: '测量日期', type: 'date', required: true, maxDate: 'today' },
            {
              key: 'vs_height',
              label: '身高',
              type: 'decimal',
              unit: 'cm',
              precision: 1,
              min: 50,
              max: 250,
              required: true,
            },
            {
              key: 'vs_weight',
              label: '体重',
              type: 'decimal',
              unit: 'kg',
              precision: 1,
              min: 20,
              max: 300,
              required: true,
            },
            {
              key: 'vs_bmi',
              label: '体重指数（BMI）',
              type: 'calc',
              unit: 'kg/m²',
              precision: 1,
              formula: 'round([vs_weight]/(([vs_height]/100)^2),1)',
              normalLow: 18.5,
              normalHigh: 23.9,
              listColumn: true,
            },
            {
              key: 'vs_sbp',
              label: '收缩压',
              type: 'integer',
              unit: 'mmHg',
              min: 40,
              max: 300,
              normalLow: 90,
              normalHigh: 139,
              required: true,
              listColumn: true,
            },
            {
              key: 'vs_dbp',
              label: '舒张压',
              type: 'integer',
              unit: 'mmHg',
              min: 20,
              max: 200,
              normalLow: 60,
              normalHigh: 89,
              required: true,
              rules: [{ expr: '[vs_dbp] < [vs_sbp]', message: '舒张压应低于收缩压', level: 'hard' }],
            },
            { key: 'vs_heart_rate', label: '心率', type: 'integer', unit: '次/分', min: 20, max: 250 },
            {
              key: 'vs_temperature',
              label: '体温',
              type: 'decimal',
              unit: '℃',
              precision: 1,
              min: 34,
              max: 43,
              missingCodes: ['ND'],
            },
          ],
        },
        {
          key: BENCH_FORM_KEYS.history,
          title: '病史',
          fields: [
            {
              key: 'mh_diagnosis',
              label: '主要诊断',
              type: 'radio',
              options: BENCH_DIAGNOSIS_OPTIONS,
              required: true,
              listColumn: true,
            },
            { key: 'mh_onset', label: '首次发病时间', type: 'partialDate' },
            { key: 'mh_smoking', label: '吸烟史', type: 'radio', options: YES_NO_UNK, required: true },
            {
              key: 'mh_smoking_years',
              label: '吸烟年数',
              type: 'integer',
              unit: '年',
              min: 0,
              max: 80,
              showIf: "[mh_smoking] = '1'",
            },
            { key: 'mh_drinking', label: '饮酒史', type: 'yesno' },
            { key: 'mh_comorbidities', label: '合并症', type: 'checkbox', options: BENCH_COMORBIDITY_OPTIONS },
            { key: 'mh_family_history', label: '早发心血管病家族史', type: 'yesno' },
            { key: 'mh_nyha', label: 'NYHA 心功能分级', type: 'radio', options: BENCH_NYHA_OPTIONS, required: true },
          ],
        },
        {
          key: BENCH_FORM_KEYS.labs,
          title: '实验室检查',
          fields: [
            { key: 'lb_date', label: '采样日期', type: 'date', required: true, maxDate: 'today' },
            {
              key: 'lb_nt_probnp',
              label: 'NT-proBNP',
              type: 'decimal',
              unit: 'pg/mL',
              precision: 1,
              min: 0,
              max: 70000,
              normalHigh: 125,
              missingCodes: ['ND'],
              listColumn: true,
            },
            {
              key: 'lb_creatinine',
              label: '血肌酐',
              type: 'decimal',
              unit: 'μmol/L',
              precision: 1,
              min: 0,
              max: 3000,
              normalLow: 44,
              normalHigh: 133,
            },
            {
              key: 'lb_rows',
              label: '其他检验',
              type: 'group',
              maxRows: 30,
              fields: [
                {
                  key: 'lb_item',
                  label: '项目',
                  type: 'radio',
                  options: BENCH_LAB_ITEMS.map((i) => ({ code: i.code, label: i.label })),
                  required: true,
                },
                { key: 'lb_value', label: '结果', type: 'decimal', precision: 2, required: true },
                { key: 'lb_unit', label: '单位', type: 'text', maxLength: 30 },
                { key: 'lb_abnormal', label: '异常', type: 'yesno' },
              ],
            },
          ],
        },
      ],
    },
    {
      key: 'followup',
      title: '随访',
      forms: [
        {
          key: BENCH_FORM_KEYS.followUp,
          title: '随访记录',
          followUp: true,
          repeating: true,
          fields: [
            { key: 'fu_date', label: '随访日期', type: 'date', required: true, maxDate: 'today' },
            {
              key: 'fu_vital_status',
              label: '生存状态',
              type: 'radio',
              options: BENCH_VITAL_STATUS_OPTIONS,
              required: true,
            },
            {
              key: 'fu_death_date',
              label: '死亡日期',
              type: 'date',
              required: true,
              maxDate: 'today',
              showIf: "[fu_vital_status] = '2'",
              rules: [{ expr: '[fu_death_date] <= [fu_date]', message: '死亡日期不能晚于随访日期', level: 'hard' }],
            },
            { key: 'fu_readmission', label: '再住院', type: 'yesno', showIf: "[fu_vital_status] = '1'" },
            {
              key: 'fu_nyha',
              label: 'NYHA 心功能分级',
              type: 'radio',
              options: BENCH_NYHA_OPTIONS,
              showIf: "[fu_vital_status] = '1'",
            },
            {
              key: 'fu_sbp',
              label: '收缩压',
              type: 'integer',
              unit: 'mmHg',
              min: 40,
              max: 300,
              showIf: "[fu_vital_status] = '1'",
            },
            {
              key: 'fu_weight',
              label: '体重',
              type: 'decimal',
              unit: 'kg',
              precision: 1,
              min: 20,
              max: 300,
              showIf: "[fu_vital_status] = '1'",
            },
            { key: 'fu_notes', label: '备注', type: 'textarea', maxLength: 500 },
          ],
        },
      ],
    },
  ],
};
