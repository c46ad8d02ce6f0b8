import { cohortForms } from '@registry/shared/cohort/check';
import type { Definition } from '@registry/shared/forms/definition';
import type { CohortOption } from './hooks/cohort-summary';

/** A small published definition: a baseline form, a lab form with a lab table, a repeating hospital-stay form. */
export const TEST_DEFINITION: Pick<Definition, 'categories'> = {
  categories: [
    {
      key: 'base',
      title: '基线资料',
      forms: [
        {
          key: 'echo',
          title: '超声心动图',
          fields: [
            { key: 'lvef', label: '左室射血分数', type: 'decimal' },
            { key: 'echo_date', label: '检查日期', type: 'date' },
            {
              key: 'nyha',
              label: 'NYHA分级',
              type: 'radio',
              options: [
                { code: '1', label: 'I级' },
                { code: '2', label: 'II级' },
                { code: '3', label: 'III级' },
              ],
            },
            { key: 'echo_note', label: '备注', type: 'text' },
            { key: 'echo_img', label: '图像', type: 'file' },
          ],
        },
      ],
    },
    {
      key: 'exam',
      title: '检查检验',
      forms: [
        {
          key: 'lab',
          title: '化验',
          fields: [
            { key: 'lb_date', label: '采样日期', type: 'date' },
            {
              key: 'lb_rows',
              label: '其他检验',
              type: 'group',
              fields: [
                {
                  key: 'lb_item',
                  label: '项目',
                  type: 'radio',
                  options: [
                    { code: 'ntprobnp', label: 'NT-proBNP' },
                    { code: 'k', label: '血钾' },
                  ],
                },
                { key: 'lb_value', label: '结果', type: 'decimal' },
              ],
            },
          ],
        },
        {
          key: 'stay',
          title: '住院记录',
          repeating: true,
          fields: [
            { key: 'admit', label: '入院日期', type: 'date' },
            { key: 'diag', label: '诊断', type: 'text' },
          ],
        },
      ],
    },
  ],
};

export const TEST_FORMS = cohortForms(TEST_DEFINITION);

export const TEST_CATEGORIES = TEST_DEFINITION.categories.map((c) => ({
  key: c.key,
  title: c.title,
  formKeys: c.forms.map((f) => f.key),
}));

export const CENTER_1 = '00000000-0000-4000-8000-0000000000c1';
export const CENTER_2 = '00000000-0000-4000-8000-0000000000c2';
export const TEST_CENTERS: CohortOption[] = [
  { value: CENTER_1, label: 'C01' },
  { value: CENTER_2, label: 'C02' },
];
export const TEST_SUB_PROJECTS: CohortOption[] = [{ value: '00000000-0000-4000-8000-0000000000a1', label: '子项目甲' }];
