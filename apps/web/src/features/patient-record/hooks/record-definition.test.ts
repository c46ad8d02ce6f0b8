import { describe, expect, it } from 'vitest';
import type { Definition } from '@registry/shared/forms/definition';
import { buildPublished, RECORD_DEFINITION } from '../test-factories';
import { mergePublished, withRecordVersion } from './record-definition';

const own: Definition = {
  categories: [
    {
      key: 'hfpef',
      title: 'HFpEF 专项',
      forms: [
        { key: 'hfpef_assessment', title: 'HFpEF 评估', fields: [{ key: 'lavi', label: 'LAVI', type: 'decimal' }] },
      ],
    },
  ],
  missingCodes: [
    { code: 'UNK', label: '不详' },
    { code: 'NA', label: '不适用' },
  ],
};

describe('mergePublished', () => {
  it("should put a sub-project's parent forms first, then its own, each with the version it belongs to", () => {
    const merged = mergePublished({
      parent: { versionId: 'v-parent', versionNo: 3, projectId: 'p-1', definition: RECORD_DEFINITION },
      own: { versionId: 'v-own', versionNo: 1, projectId: 'p-2', definition: own },
    });
    expect(merged.definition.categories.map((c) => c.key)).toEqual(['baseline', 'followup', 'hfpef']);
    expect(merged.definition.missingCodes.map((c) => c.code)).toEqual(['UNK', 'NA']);
    expect(merged.versionOf.get('vital_signs')).toEqual({ versionId: 'v-parent', versionNo: 3, inherited: true });
    expect(merged.versionOf.get('hfpef_assessment')).toEqual({ versionId: 'v-own', versionNo: 1, inherited: false });
  });

  it('should give an empty definition before anything is published', () => {
    expect(mergePublished({ own: null, parent: null }).definition.categories).toEqual([]);
  });

  it("should swap in the record's own version of its form", () => {
    const older = structuredClone(RECORD_DEFINITION);
    older.categories[0]?.forms[0]?.fields.splice(1);
    const merged = mergePublished(buildPublished()).definition;
    const on = withRecordVersion(merged, older, 'vital_signs');
    expect(on.categories[0]?.forms[0]?.fields.map((f) => f.key)).toEqual(['vs_date']);
    expect(on.categories[1]).toEqual(merged.categories[1]);
  });
});
