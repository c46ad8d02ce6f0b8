/** One changed field of an audit event: its dotted path and the value before and after ("—" when absent). */
export type FieldChange = { field: string; before: string; after: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value as a short readable text: strings bare, null/undefined as —, others as JSON. */
export function formatValue(value: unknown): string {
  if (value === undefined || value === null || value === '') return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function flatten(value: unknown, prefix: string, out: Map<string, unknown>): void {
  if (isRecord(value) && Object.keys(value).length > 0) {
    for (const [key, inner] of Object.entries(value)) flatten(inner, prefix ? `${prefix}.${key}` : key, out);
    return;
  }
  out.set(prefix, value);
}

/**
 * The fields that differ between the old and new JSON values of an audit event, nested objects flattened to dotted
 * paths; a creation lists every new field, a deletion every old one. Non-object values compare as one field "值".
 */
export function diffValues(before: unknown, after: unknown): FieldChange[] {
  if (!isRecord(before) && !isRecord(after)) {
    if (JSON.stringify(before ?? null) === JSON.stringify(after ?? null)) return [];
    return [{ field: '值', before: formatValue(before), after: formatValue(after) }];
  }
  const old = new Map<string, unknown>();
  const next = new Map<string, unknown>();
  if (isRecord(before)) flatten(before, '', old);
  if (isRecord(after)) flatten(after, '', next);
  const fields = [...new Set([...old.keys(), ...next.keys()])];
  return fields
    .filter((field) => JSON.stringify(old.get(field) ?? null) !== JSON.stringify(next.get(field) ?? null))
    .map((field) => ({ field, before: formatValue(old.get(field)), after: formatValue(next.get(field)) }));
}
