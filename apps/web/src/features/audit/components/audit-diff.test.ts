import { describe, expect, it } from 'vitest';
import { diffValues } from './audit-diff';

describe('diffValues', () => {
  it('should list only the changed fields with dotted paths when both values are objects', () => {
    const changes = diffValues(
      { name: '心衰登记', status: 'draft', meta: { area: '心血管', size: 1 } },
      { name: '心衰登记', status: 'active', meta: { area: '心内科', size: 1 } },
    );
    expect(changes).toEqual([
      { field: 'status', before: 'draft', after: 'active' },
      { field: 'meta.area', before: '心血管', after: '心内科' },
    ]);
  });

  it('should list every new field against — when the event created the entity', () => {
    expect(diffValues(null, { code: 'C01', open: true })).toEqual([
      { field: 'code', before: '—', after: 'C01' },
      { field: 'open', before: '—', after: 'true' },
    ]);
  });

  it('should compare scalars as one field when the values are not objects', () => {
    expect(diffValues('a', 'b')).toEqual([{ field: '值', before: 'a', after: 'b' }]);
    expect(diffValues(null, null)).toEqual([]);
  });

  it('should show arrays as JSON when a list changed', () => {
    expect(diffValues({ codes: ['a'] }, { codes: ['a', 'b'] })).toEqual([
      { field: 'codes', before: '["a"]', after: '["a","b"]' },
    ]);
  });
});
