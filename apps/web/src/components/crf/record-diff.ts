import { isBlankValue, sameValue } from '@registry/shared/forms/values';

type Data = Record<string, unknown>;

/** The field keys whose values differ between two versions of a record's data (blank counts as absent). */
export function changedKeys(before: Data, after: Data): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => {
    const a = before[k];
    const b = after[k];
    if (isBlankValue(a) && isBlankValue(b)) return false;
    return !sameValue(a, b);
  });
}

/** Whether two versions of a record's data hold the same values. */
export function sameData(a: Data, b: Data): boolean {
  return a === b || changedKeys(a, b).length === 0;
}

/** `base` with the values of `keys` taken from `mine` (a key `mine` lacks is removed). */
export function applyKeys(base: Data, mine: Data, keys: readonly string[]): Data {
  const next: Data = { ...base };
  for (const key of keys) {
    if (isBlankValue(mine[key])) delete next[key];
    else next[key] = mine[key];
  }
  return next;
}
