import { describe, expect, it } from 'vitest';
import { applyKeys, changedKeys, sameData } from './record-diff';

describe('record diff', () => {
  it('should name the keys whose values differ, treating blank as absent and ignoring key order', () => {
    const before = { a: 1, b: '', meds: [{ drug: 'x', dose: '1' }], c: ['1', '2'] };
    const after = { a: 1, meds: [{ dose: '1', drug: 'x' }], c: ['1', '3'], d: 5 };
    expect(changedKeys(before, after).sort()).toEqual(['c', 'd']);
    expect(sameData({ a: 1, b: null }, { a: 1 })).toBe(true);
    expect(sameData({ a: 1 }, { a: 2 })).toBe(false);
  });

  it('should copy the chosen keys onto another version and remove those blank in the source', () => {
    expect(applyKeys({ a: 1, b: 2, c: 3 }, { a: 9, c: undefined }, ['a', 'c'])).toEqual({ a: 9, b: 2 });
  });
});
