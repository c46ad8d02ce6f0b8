import { describe, expect, it } from 'vitest';
import type { Definition } from '@registry/shared/forms/definition';
import { listFieldsOf } from './list-fields';

const definition: Definition = {
  missingCodes: [],
  categories: [
    {
      key: 'base',
      title: '基线',
      forms: [
        {
          key: 'demographics',
          title: '人口学资料',
          fields: [
            { key: 'name', label: '姓名', type: 'text', listColumn: true, binding: 'patient.name' },
            {
              key: 'gender',
              label: '性别',
              type: 'dict',
              dictCode: 'gender',
              listColumn: true,
              binding: 'patient.gender',
            },
            { key: 'ethnicity', label: '民族', type: 'dict', dictCode: 'ethnicity', listColumn: true },
          ],
        },
      ],
    },
  ],
};

describe('listFieldsOf', () => {
  it('should leave fields bound to the patient out of the CRF columns: the patient’s own columns show them', () => {
    const fields = listFieldsOf({
      own: { versionId: 'v-1', versionNo: 1, projectId: 'p-1', definition },
      parent: null,
    });
    expect(fields.map((f) => f.key)).toEqual(['ethnicity']);
  });
});
