import { DEFAULT_MISSING_CODES, type Definition } from '@registry/shared/forms/definition';

/** The HFpEF sub-project's own form (it also sees HF-REG's). */
export const HFPEF_DEFINITION: Definition = {
  missingCodes: DEFAULT_MISSING_CODES,
  categories: [
    {
      key: 'hfpef',
      title: 'HFpEF 专项',
      forms: [
        {
          key: 'hfpef_assessment',
          title: 'HFpEF 评估',
          fields: [
            { key: 'e_e_ratio', label: "E/e'", type: 'decimal', precision: 1, min: 0, max: 50, normalHigh: 14 },
            {
              key: 'lavi',
              label: '左房容积指数（LAVI）',
              type: 'decimal',
              unit: 'mL/m²',
              precision: 1,
              min: 0,
              max: 150,
            },
            { key: 'h2fpef_score', label: 'H2FPEF 评分', type: 'integer', min: 0, max: 9 },
            {
              key: 'hfpef_likely',
              label: 'HFpEF 可能性高',
              type: 'calc',
              formula: 'if([h2fpef_score] >= 6, 1, 0)',
              help: 'H2FPEF 评分 ≥ 6 分',
            },
          ],
        },
      ],
    },
  ],
};
