type Data = Record<string, unknown>;

/** Structural equality of two JSON values (object key order ignored). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  const ka = Object.keys(a).filter((k) => (a as Data)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Data)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => sameValue((a as Data)[k], (b as Data)[k]));
}

const blank = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** The field keys whose values differ between two versions of a record's data (blank counts as absent). */
export function changedKeys(before: Data, after: Data): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => {
    const a = before[k];
    const b = after[k];
    if (blank(a) && blank(b)) return false;
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
    if (blank(mine[key])) delete next[key];
    else next[key] = mine[key];
  }
  return next;
}
