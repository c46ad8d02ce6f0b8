import type { FormDefinition } from '@registry/shared/forms/definition';

/** The field key a data path belongs to: `weight` → `weight`, `meds.2.dose` → `meds`. */
export function topKey(path: string): string {
  const dot = path.indexOf('.');
  return dot < 0 ? path : path.slice(0, dot);
}

/** The record without the values at `paths` (`weight`, or a group row's cell `meds.2.dose`); the input is untouched. */
export function removePaths(data: Record<string, unknown>, paths: readonly string[]): Record<string, unknown> {
  const next: Record<string, unknown> = { ...data };
  for (const path of paths) {
    const [key, index, column] = path.split('.');
    if (key === undefined) continue;
    if (index === undefined || column === undefined) {
      delete next[key];
      continue;
    }
    const rows = next[key];
    const i = Number(index);
    if (!Array.isArray(rows) || !Number.isInteger(i) || i < 0 || i >= rows.length) continue;
    const copy = [...(rows as unknown[])];
    const row = copy[i];
    if (typeof row === 'object' && row !== null) {
      const { [column]: _removed, ...rest } = row as Record<string, unknown>;
      copy[i] = rest;
    }
    next[key] = copy;
  }
  return next;
}

/** The record with one field set; undefined removes it (a blank value is absent). */
export function setKey(data: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const next = { ...data };
  if (value === undefined) delete next[key];
  else next[key] = value;
  return next;
}

/** A person's name for a data path: `体重`, or `用药 第3行「剂量」`. */
export function pathLabel(form: FormDefinition, path: string): string {
  const [key, index, column] = path.split('.');
  const field = form.fields.find((f) => f.key === key);
  if (!field) return path;
  if (index === undefined || column === undefined) return field.label;
  const col = field.fields?.find((c) => c.key === column);
  return `${field.label} 第${Number(index) + 1}行「${col?.label ?? column}」`;
}
