import { DEFAULT_MISSING_CODES, type Definition } from '@registry/shared/forms/definition';

/** 2型糖尿病随访队列. */
export const T2DM_DEFINITION: Definition = {
  missingCodes: DEFAULT_MISSING_CODES,
  categories: [
    {
      key: 'baseline',
      title: '基线资料',
      forms: [
        {
          key: 't2dm_baseline',
          title: '基线信息',
          fields: [
            { key: 'name', label: '姓名', type: 'text', required: true, phi: true, binding: 'patient.name' },
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
            { key: 'diagnosis_year', label: '确诊年份', type: 'integer', min: 1950, max: 2100 },
            {
              key: 'hba1c',
              label: '糖化血红蛋白（HbA1c）',
              type: 'decimal',
              unit: '%',
              precision: 1,
              min: 3,
              max: 20,
              normalHigh: 6.0,
            },
            {
              key: 'fpg',
              label: '空腹血糖',
              type: 'decimal',
              unit: 'mmol/L',
              precision: 1,
              min: 1,
              max: 40,
              normalLow: 3.9,
              normalHigh: 6.1,
            },
            { key: 'on_insulin', label: '使用胰岛素', type: 'yesno' },
          ],
        },
      ],
    },
    {
      key: 'followup',
      title: '随访',
      forms: [
        {
          key: 't2dm_followup',
          title: '随访记录',
          followUp: true,
          repeating: true,
          fields: [
            { key: 'fu_date', label: '随访日期', type: 'date', required: true, maxDate: 'today' },
            {
              key: 'fu_hba1c',
              label: '糖化血红蛋白（HbA1c）',
              type: 'decimal',
              unit: '%',
              precision: 1,
              min: 3,
              max: 20,
            },
            { key: 'hypoglycemia', label: '低血糖事件', type: 'yesno' },
            {
              key: 'hypo_count',
              label: '低血糖次数',
              type: 'integer',
              min: 1,
              max: 100,
              showIf: "[hypoglycemia] = '1'",
            },
          ],
        },
      ],
    },
  ],
};
