import type { AnyField } from './definition';

/**
 * The value helpers of the record engine (`record.ts`) that a page showing stored values needs, without the engine's
 * pattern checks (and so without RE2): the patient's file and the trail of changes import them from here.
 * `record.ts` re-exports them.
 */

/** Blank: absent, null, '' or []. */
export function isBlankValue(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

/** Structural equality of two stored values (JSON: object key order and keys holding undefined ignored). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra).filter((k) => ra[k] !== undefined);
  const kb = Object.keys(rb).filter((k) => rb[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => sameValue(ra[k], rb[k]));
}

/** Whether a value lies outside the field's normal (reference) range: the renderer flags it; never an issue. */
export function isAbnormal(field: AnyField, value: unknown): boolean {
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  if (field.normalLow !== undefined && value < field.normalLow) return true;
  if (field.normalHigh !== undefined && value > field.normalHigh) return true;
  return false;
}
