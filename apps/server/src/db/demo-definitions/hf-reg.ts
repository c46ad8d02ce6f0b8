import {
  DEFAULT_MISSING_CODES,
  type Definition,
  type FieldDefinition,
  type FieldOption,
} from '@registry/shared/forms/definition';

/** The demo database of 心力衰竭注册登记研究 (HF-REG): published version 1 and a draft with one unpublished change. */

const NYHA: FieldOption[] = [
  { code: '1', label: 'I级' },
  { code: '2', label: 'II级' },
  { code: '3', label: 'III级' },
  { code: '4', label: 'IV级' },
];

const vitalSigns: FieldDefinition[] = [
  { key: 'vs_date', label: '测量日期', type: 'date', maxDate: 'today' },
  {
    key: 'height',
    label: '身高',
    type: 'decimal',
    unit: 'cm',
    precision: 1,
    min: 50,
    max: 250,
    required: true,
    missingCodes: ['UNK'],
  },
  {
    key: 'weight',
    label: '体重',
    type: 'decimal',
    unit: 'kg',
    precision: 1,
    min: 20,
    max: 300,
    required: true,
    missingCodes: ['UNK'],
  },
  {
    key: 'bmi',
    label: '体重指数（BMI）',
    type: 'calc',
    unit: 'kg/m²',
    precision: 1,
    formula: 'round([weight]/(([height]/100)^2),1)',
    normalLow: 18.5,
    normalHigh: 23.9,
    listColumn: true,
  },
  {
    key: 'sbp',
    label: '收缩压',
    type: 'integer',
    unit: 'mmHg',
    min: 40,
    max: 300,
    normalLow: 90,
    normalHigh: 139,
    required: true,
  },
  {
    key: 'dbp',
    label: '舒张压',
    type: 'integer',
    unit: 'mmHg',
    min: 20,
    max: 200,
    normalLow: 60,
    normalHigh: 89,
    required: true,
    rules: [{ expr: '[dbp] < [sbp]', message: '舒张压应低于收缩压', level: 'hard' }],
  },
  {
    key: 'heart_rate',
    label: '心率',
    type: 'integer',
    unit: '次/分',
    min: 20,
    max: 250,
    normalLow: 60,
    normalHigh: 100,
  },
];

/** HF-REG version 1. */
export const HF_REG_DEFINITION: Definition = {
  missingCodes: DEFAULT_MISSING_CODES,
  categories: [
    {
      key: 'baseline',
      title: '基线资料',
      forms: [
        {
          key: 'demographics',
          title: '人口学资料',
          description: '入组时采集，身份信息仅用于随访联系',
          fields: [
            // Bound to the patient record: 新增患者 collects them once, the form shows the patient's values.
            {
              key: 'name',
              label: '姓名',
              type: 'text',
              required: true,
              phi: true,
              maxLength: 50,
              binding: 'patient.name',
            },
            {
              key: 'gender',
              label: '性别',
              type: 'dict',
              dictCode: 'gender',
              required: true,
              binding: 'patient.gender',
            },
            {
              key: 'birth_date',
              label: '出生日期',
              type: 'date',
              required: true,
              phi: true,
              maxDate: 'today',
              binding: 'patient.birthDate',
            },
            {
              key: 'age',
              label: '年龄',
              type: 'calc',
              unit: '岁',
              formula: "rounddown(datediff([birth_date], 'today', 'y'), 0)",
              // not a list column: the patient list shows 年龄/出生日期 from the patient record itself
              help: '由出生日期自动计算',
            },
            { key: 'ethnicity', label: '民族', type: 'dict', dictCode: 'ethnicity' },
            { key: 'blood_type', label: '血型', type: 'dict', dictCode: 'blood_type', missingCodes: ['UNK', 'ND'] },
            {
              key: 'phone',
              label: '联系电话',
              type: 'text',
              phi: true,
              pattern: { regex: '1[3-9]\\d{9}', message: '请输入11位手机号码', level: 'hard' },
              binding: 'patient.phone',
            },
            {
              key: 'id_number',
              label: '身份证号',
              type: 'text',
              phi: true,
              pattern: { regex: '\\d{17}[\\dXx]', message: '请输入18位身份证号码', level: 'hard' },
              binding: 'patient.idNumber',
            },
            { key: 'address', label: '家庭住址', type: 'textarea', phi: true, maxLength: 200 },
          ],
        },
        { key: 'vital_signs', title: '生命体征', fields: vitalSigns },
        {
          key: 'medical_history',
          title: '病史',
          fields: [
            { key: 'smoking', label: '吸烟史', type: 'yesno', required: true },
            {
              key: 'smoking_packs',
              label: '每日吸烟量',
              type: 'decimal',
              unit: '包/日',
              precision: 1,
              min: 0,
              max: 10,
              showIf: "[smoking] = '1'",
            },
            {
              key: 'smoking_years',
              label: '吸烟年数',
              type: 'integer',
              unit: '年',
              min: 0,
              max: 80,
              showIf: "[smoking] = '1'",
            },
            {
              key: 'comorbidities',
              label: '合并症',
              type: 'checkbox',
              options: [
                { code: 'htn', label: '高血压' },
                { code: 'dm', label: '糖尿病' },
                { code: 'af', label: '心房颤动' },
                { code: 'cad', label: '冠心病' },
                { code: 'ckd', label: '慢性肾脏病' },
                { code: 'copd', label: '慢性阻塞性肺疾病' },
                { code: 'stroke', label: '脑卒中' },
              ],
            },
            {
              key: 'primary_diagnosis',
              label: '主要诊断',
              type: 'dict',
              dictCode: 'icd10',
              required: true,
              listColumn: true,
              help: 'ICD-10 诊断编码，如 I50.0 充血性心力衰竭',
            },
          ],
        },
      ],
    },
    {
      key: 'examinations',
      title: '检查检验',
      forms: [
        {
          key: 'echocardiography',
          title: '超声心动图',
          fields: [
            { key: 'echo_date', label: '检查日期', type: 'date', maxDate: 'today', required: true },
            {
              key: 'lvef',
              label: '左室射血分数（LVEF）',
              type: 'decimal',
              unit: '%',
              precision: 1,
              min: 10,
              max: 80,
              rangeLevel: 'soft',
              normalLow: 50,
              required: true,
              help: '超出 10–80% 时提示核实',
            },
            {
              key: 'lvedd',
              label: '左室舒张末内径（LVEDD）',
              type: 'decimal',
              unit: 'mm',
              precision: 1,
              min: 20,
              max: 100,
            },
            { key: 'nyha', label: 'NYHA 心功能分级', type: 'radio', options: NYHA, required: true },
          ],
        },
        {
          key: 'laboratory',
          title: '实验室检查',
          fields: [
            { key: 'lab_date', label: '采样日期', type: 'date', maxDate: 'today' },
            {
              key: 'nt_probnp',
              label: 'NT-proBNP',
              type: 'decimal',
              unit: 'pg/mL',
              precision: 1,
              min: 0,
              max: 70000,
              normalLow: 0,
              normalHigh: 125,
              missingCodes: ['ND'],
            },
            {
              key: 'creatinine',
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
              key: 'other_labs',
              label: '其他检验',
              type: 'group',
              maxRows: 30,
              fields: [
                { key: 'lab_item', label: '项目', type: 'text', required: true, maxLength: 100 },
                { key: 'lab_result', label: '结果', type: 'text', required: true, maxLength: 100 },
                { key: 'lab_unit', label: '单位', type: 'text', maxLength: 30 },
              ],
            },
          ],
        },
      ],
    },
    {
      key: 'treatment',
      title: '治疗',
      forms: [
        {
          key: 'medications',
          title: '用药记录',
          fields: [
            {
              key: 'meds',
              label: '用药',
              type: 'group',
              fields: [
                { key: 'drug_name', label: '药品', type: 'text', required: true, maxLength: 100 },
                { key: 'dose', label: '剂量', type: 'text', maxLength: 50, help: '如 25 mg' },
                {
                  key: 'frequency',
                  label: '频次',
                  type: 'radio',
                  options: [
                    { code: 'qd', label: '每日一次' },
                    { code: 'bid', label: '每日两次' },
                    { code: 'tid', label: '每日三次' },
                    { code: 'qn', label: '每晚一次' },
                    { code: 'prn', label: '必要时' },
                  ],
                },
                { key: 'med_start', label: '开始日期', type: 'date', maxDate: 'today' },
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
          key: 'followup_visit',
          title: '随访记录',
          followUp: true,
          repeating: true,
          fields: [
            { key: 'fu_date', label: '随访日期', type: 'date', required: true, maxDate: 'today' },
            {
              key: 'vital_status',
              label: '生存状态',
              type: 'radio',
              required: true,
              options: [
                { code: '1', label: '存活' },
                { code: '2', label: '死亡' },
                { code: '3', label: '失访' },
              ],
            },
            {
              key: 'death_date',
              label: '死亡日期',
              type: 'date',
              required: true,
              maxDate: 'today',
              showIf: "[vital_status] = '2'",
              rules: [{ expr: '[death_date] <= [fu_date]', message: '死亡日期不能晚于随访日期', level: 'hard' }],
            },
            { key: 'death_cause', label: '死亡原因', type: 'text', showIf: "[vital_status] = '2'", maxLength: 200 },
            { key: 'readmission', label: '再住院', type: 'yesno', showIf: "[vital_status] = '1'" },
            { key: 'fu_nyha', label: 'NYHA 心功能分级', type: 'radio', options: NYHA, showIf: "[vital_status] = '1'" },
          ],
        },
      ],
    },
  ],
};

/** The HF-REG draft: version 1 plus one unpublished change (waist circumference in 生命体征). */
export const HF_REG_DRAFT: Definition = {
  ...HF_REG_DEFINITION,
  categories: HF_REG_DEFINITION.categories.map((category) => ({
    ...category,
    forms: category.forms.map((form) =>
      form.key === 'vital_signs'
        ? {
            ...form,
            fields: [
              ...form.fields.slice(0, 3),
              { key: 'waist', label: '腰围', type: 'decimal', unit: 'cm', precision: 1, min: 30, max: 200 },
              ...form.fields.slice(3),
            ],
          }
        : form,
    ),
  })),
};
