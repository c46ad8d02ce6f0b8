import type { AnyField, FieldDefinition, FormDefinition } from '@registry/shared/forms/definition';
import { isBlankValue, sameValue } from '@registry/shared/forms/record';

/**
 * Leaf paths of a record's data, the unit of its history: a form's own field by key (`weight`, a checkbox's whole
 * list, a file list), a repeating group's cell as `key.<row index>.<column>` (`meds.2.dose`). A group holding a
 * missing-data code instead of rows is one leaf at its key. Blank values (absent, null, '', []) are no leaf.
 */

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const groupOf = (form: FormDefinition, key: string): FieldDefinition | undefined =>
  form.fields.find((f) => f.key === key && f.type === 'group');

/** The non-blank leaves of a record's data, in the form's field and column order (then keys it does not know). */
export function leafValues(form: FormDefinition, data: Readonly<Record<string, unknown>>): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const take = (key: string, value: unknown, group: FieldDefinition | undefined) => {
    if (isBlankValue(value)) return;
    if (!group || !Array.isArray(value)) {
      out.set(key, value);
      return;
    }
    const columns = (group.fields ?? []).map((c) => c.key);
    value.forEach((row: unknown, index) => {
      if (!isPlainObject(row)) return;
      const keys = [...columns.filter((c) => Object.prototype.hasOwnProperty.call(row, c))];
      for (const k of Object.keys(row)) if (!columns.includes(k)) keys.push(k);
      for (const column of keys) if (!isBlankValue(row[column])) out.set(`${key}.${index}.${column}`, row[column]);
    });
  };
  const known = new Set<string>();
  for (const field of form.fields) {
    known.add(field.key);
    if (Object.prototype.hasOwnProperty.call(data, field.key))
      take(field.key, data[field.key], field.type === 'group' ? field : undefined);
  }
  for (const [key, value] of Object.entries(data)) if (!known.has(key)) take(key, value, undefined);
  return out;
}

export type LeafChange = { path: string; before: unknown; after: unknown };

/** The leaves whose value differs between two data objects (a removed value: `after` null), old paths first. */
export function diffLeaves(
  form: FormDefinition,
  before: Readonly<Record<string, unknown>>,
  after: Readonly<Record<string, unknown>>,
): LeafChange[] {
  const a = leafValues(form, before);
  const b = leafValues(form, after);
  const out: LeafChange[] = [];
  for (const [path, value] of a) {
    const next = b.has(path) ? b.get(path) : null;
    if (!sameValue(value, next)) out.push({ path, before: value, after: next });
  }
  for (const [path, value] of b) if (!a.has(path)) out.push({ path, before: null, after: value });
  return out;
}

/** The field a leaf path names (`weight` or `meds.2.dose`), or undefined when the form has no such data point. */
export function fieldOfPath(form: FormDefinition, path: string): AnyField | undefined {
  const parts = path.split('.');
  if (parts.length === 1)
    return form.fields.find((f) => f.key === path && f.type !== 'section' && f.type !== 'description');
  if (parts.length !== 3) return undefined;
  const [groupKey, index, column] = parts;
  if (!/^(0|[1-9]\d{0,4})$/.test(index ?? '')) return undefined;
  const group = form.fields.find((f) => f.key === groupKey && f.type === 'group');
  return group?.fields?.find((c) => c.key === column && c.type !== 'section' && c.type !== 'description');
}

/**
 * The form's field keys flagged `phi`: own fields by key, group columns as `group.column`. A field bound to an identity
 * attribute of the patient (name, birth date, identity number, phone, hospital number) counts as `phi` whatever its
 * flag says: it holds the patient's own identity value.
 */
export function phiKeys(form: FormDefinition): Set<string> {
  const out = new Set<string>();
  for (const field of form.fields) {
    if (field.phi || (field.binding !== undefined && field.binding !== 'patient.gender')) out.add(field.key);
    if (field.type === 'group') for (const c of field.fields ?? []) if (c.phi) out.add(`${field.key}.${c.key}`);
  }
  return out;
}

/** Whether a leaf path belongs to a `phi` field (for a group cell: its column, or the whole group). */
export function isPhiPath(phi: ReadonlySet<string>, path: string): boolean {
  if (phi.size === 0) return false;
  const parts = path.split('.');
  if (parts.length === 3) return phi.has(`${parts[0]}.${parts[2]}`) || phi.has(parts[0] ?? '');
  return phi.has(path);
}

/**
 * The data with the values of `phi` fields withheld (null), and the leaf paths withheld. Used for every answer to a
 * caller without `patient.pii`.
 */
export function maskData(
  form: FormDefinition,
  data: Readonly<Record<string, unknown>>,
): { data: Record<string, unknown>; maskedPaths: string[] } {
  const phi = phiKeys(form);
  if (phi.size === 0) return { data: { ...data }, maskedPaths: [] };
  const out: Record<string, unknown> = {};
  const masked: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (phi.has(key)) {
      out[key] = null;
      if (!isBlankValue(value)) masked.push(key);
      continue;
    }
    const group = Array.isArray(value) ? groupOf(form, key) : undefined;
    if (group && Array.isArray(value)) {
      out[key] = value.map((row: unknown, index) => {
        if (!isPlainObject(row)) return row;
        const copy: Record<string, unknown> = { ...row };
        for (const column of Object.keys(row))
          if (phi.has(`${key}.${column}`)) {
            if (!isBlankValue(row[column])) masked.push(`${key}.${index}.${column}`);
            copy[column] = null;
          }
        return copy;
      });
      continue;
    }
    out[key] = value;
  }
  return { data: out, maskedPaths: masked };
}

/**
 * What a caller without `patient.pii` sends back for fields it never saw: a blank `phi` value keeps the stored one
 * (they are write-only for it, never wiped by a round trip), a value it typed replaces it.
 */
export function keepWithheld(
  form: FormDefinition,
  stored: Readonly<Record<string, unknown>>,
  input: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const phi = phiKeys(form);
  if (phi.size === 0) return { ...input };
  const out: Record<string, unknown> = { ...input };
  for (const field of form.fields) {
    if (phi.has(field.key)) {
      if (isBlankValue(out[field.key]) && !isBlankValue(stored[field.key])) out[field.key] = stored[field.key];
      continue;
    }
    if (field.type !== 'group') continue;
    const rows = out[field.key];
    const storedRows = stored[field.key];
    if (!Array.isArray(rows) || !Array.isArray(storedRows)) continue;
    out[field.key] = rows.map((row: unknown, index) => {
      const before: unknown = storedRows[index];
      if (!isPlainObject(row) || !isPlainObject(before)) return row;
      const copy: Record<string, unknown> = { ...row };
      for (const column of field.fields ?? [])
        if (
          phi.has(`${field.key}.${column.key}`) &&
          isBlankValue(copy[column.key]) &&
          !isBlankValue(before[column.key])
        )
          copy[column.key] = before[column.key];
      return copy;
    });
  }
  return out;
}

/** The label of a data point as users read it: `体重`, a group cell `用药 第3行「剂量」` (the path when unknown). */
export function pathLabelOf(form: FormDefinition | undefined, path: string): string {
  const [key, index, column] = path.split('.');
  const field = form?.fields.find((f) => f.key === key);
  if (!field) return path;
  if (index === undefined || column === undefined) return field.label;
  const col = field.fields?.find((c) => c.key === column);
  return `${field.label} 第${Number(index) + 1}行「${col?.label ?? column}」`;
}
