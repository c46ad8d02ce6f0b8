import { describe, expect, it } from 'vitest';
import type { PublishedVersion } from '@registry/shared/contracts/form-definition';
import { TEST_DEFINITION } from '../test-factories';
import { cohortFormsOfPublished } from './use-cohort-forms';

const version = (categories: PublishedVersion['definition']['categories']): PublishedVersion => ({
  versionId: 'v',
  versionNo: 1,
  projectId: 'p',
  definition: { categories, missingCodes: [] },
});

describe('cohortFormsOfPublished', () => {
  it("lists a sub-project's parent's forms first, then its own, each key once, under their categories", () => {
    const parent = version(TEST_DEFINITION.categories);
    const own = version([
      {
        key: 'sub',
        title: '子项目表单',
        forms: [
          { key: 'echo', title: '重复的键', fields: [] },
          { key: 'six', title: '六分钟步行', fields: [{ key: 'six_m', label: '距离', type: 'integer' }] },
        ],
      },
    ]);
    const { forms, categories } = cohortFormsOfPublished({ parent, own });
    expect(forms.map((f) => f.key)).toEqual(['echo', 'lab', 'stay', 'six']);
    expect(forms[0]?.title).toBe('超声心动图');
    expect(categories).toEqual([
      { key: 'base', title: '基线资料', formKeys: ['echo'] },
      { key: 'exam', title: '检查检验', formKeys: ['lab', 'stay'] },
      { key: 'sub', title: '子项目表单', formKeys: ['six'] },
    ]);
    expect(cohortFormsOfPublished(undefined)).toEqual({ forms: [], categories: [] });
  });
});
