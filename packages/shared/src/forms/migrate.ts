import type { AnyField, FormDefinition } from './definition';
import { evaluateForm, isBlankValue, sameValue, validateRecord, type ValidateContext } from './record';

/**
 * Bringing a record entered on one published version of its form onto another (REDCap's and OpenClinica's CRF
 * version migration): values are carried by field key (group cells by the group's and the column's keys); a value the
 * new version does not accept, a field it no longer has, or a field its show-if now hides is not carried and is listed
 * with the reason; calculated fields are computed by the new formulas. Pure and total, like the rest of the engine.
 */

/** A value that cannot be carried onto the new version. */
export type MigrationLoss = {
  /** `weight`, or a group cell `meds.2.dose`. */
  path: string;
  /** The label in the version the value was entered on (or the key). */
  label: string;
  value: unknown;
  reason: string;
};

/** A calculated value the new formula computes differently. */
export type MigrationRecalc = { path: string; label: string; before: unknown; after: unknown };

export type RecordMigration = {
  /** The data as it would be stored on the new version. */
  data: Record<string, unknown>;
  /** Values carried unchanged (or converted: `"12"` into an integer field). */
  carried: number;
  lost: MigrationLoss[];
  recalculated: MigrationRecalc[];
};

export const MIGRATION_REASONS = {
  removed: '新版本中已没有该字段',
  hidden: '按新版本的显示条件，该字段不显示',
  rejected: '新版本不接受该值',
} as const;

type Leaf = { path: string; value: unknown };

const isRow = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The leaf values of record data, by shape: top-level values, and each cell of rows (arrays of objects). */
function leaves(data: Readonly<Record<string, unknown>>): Leaf[] {
  const out: Leaf[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (isBlankValue(value)) continue;
    if (Array.isArray(value) && value.length > 0 && value.every(isRow)) {
      value.forEach((row, i) => {
        for (const [col, cell] of Object.entries(row))
          if (!isBlankValue(cell)) out.push({ path: `${key}.${i}.${col}`, value: cell });
      });
    } else out.push({ path: key, value });
  }
  return out;
}

function valueAt(data: Readonly<Record<string, unknown>>, path: string): unknown {
  const [key, index, col] = path.split('.');
  const top = data[key ?? ''];
  if (index === undefined) return top;
  if (!Array.isArray(top)) return undefined;
  const row: unknown = top[Number(index)];
  return isRow(row) ? row[col ?? ''] : undefined;
}

function withoutPath(data: Record<string, unknown>, path: string): Record<string, unknown> {
  const [key = '', index, col] = path.split('.');
  if (index === undefined || col === undefined) {
    const { [key]: _dropped, ...rest } = data;
    return rest;
  }
  const rows = data[key];
  if (!Array.isArray(rows)) return data;
  return {
    ...data,
    [key]: rows.map((row: unknown, i) => {
      if (i !== Number(index) || !isRow(row)) return row;
      const { [col]: _cell, ...rest } = row;
      return rest;
    }),
  };
}

function fieldAt(form: FormDefinition, path: string): AnyField | undefined {
  const [key, index, col] = path.split('.');
  const field = form.fields.find((f) => f.key === key);
  if (index === undefined || col === undefined) return field;
  return field?.fields?.find((c) => c.key === col);
}

/** Converts what one type stored into what another stores, where nothing is lost: `"12"` → 12, 12 → `"12"`. */
function convert(field: AnyField | undefined, value: unknown): unknown {
  if (!field) return value;
  switch (field.type) {
    case 'integer':
    case 'decimal':
      return typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value.trim()) : value;
    case 'text':
    case 'textarea':
      return typeof value === 'number' ? String(value) : value;
    case 'checkbox':
      return typeof value === 'string' ? [value] : value;
    case 'radio':
    case 'dict':
      return Array.isArray(value) && value.length === 1 && typeof value[0] === 'string' ? value[0] : value;
    default:
      return value;
  }
}

function convertAll(to: FormDefinition, data: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    const field = to.fields.find((f) => f.key === key);
    if (field?.type === 'group' && Array.isArray(value))
      out[key] = value.map((row: unknown) =>
        isRow(row)
          ? Object.fromEntries(
              Object.entries(row).map(([col, cell]) => [
                col,
                convert(
                  field.fields?.find((c) => c.key === col),
                  cell,
                ),
              ]),
            )
          : row,
      );
    else out[key] = convert(field, value);
  }
  return out;
}

/**
 * The record's data moved from `from` (the version it was entered on) to `to`: what is carried, what is lost and why,
 * and which calculated values change. Checks run as for a draft (a required field the new version adds is not a loss:
 * it is simply still to be filled).
 */
export function migrateRecordData(
  from: FormDefinition,
  to: FormDefinition,
  data: Readonly<Record<string, unknown>>,
  ctx: Omit<ValidateContext, 'mode'>,
): RecordMigration {
  const reasons = new Map<string, string>();
  let current = convertAll(to, data);
  // Drop what the new version refuses, then check again: a dropped value may change calcs, show-if and rules.
  for (let round = 0; round < 8; round++) {
    const verdict = validateRecord(to, current, { ...ctx, mode: 'draft' });
    const hard = verdict.issues.filter((i) => i.level === 'hard');
    if (hard.length === 0) {
      current = verdict.data;
      break;
    }
    for (const issue of hard) {
      if (!reasons.has(issue.path)) reasons.set(issue.path, issue.message);
      current = withoutPath(current, issue.path);
    }
  }
  const final = validateRecord(to, current, { ...ctx, mode: 'draft' }).data;
  const hidden = new Set(evaluateForm(to, final, ctx).hidden);

  const lost: MigrationLoss[] = [];
  const recalculated: MigrationRecalc[] = [];
  let carried = 0;
  for (const leaf of leaves(data)) {
    const target = fieldAt(to, leaf.path);
    const source = fieldAt(from, leaf.path);
    const after = valueAt(final, leaf.path);
    const label = source?.label ?? target?.label ?? leaf.path;
    if (target?.type === 'calc') {
      if (!sameValue(leaf.value, after)) recalculated.push({ path: leaf.path, label, before: leaf.value, after });
      continue;
    }
    if (!isBlankValue(after)) {
      carried++;
      continue;
    }
    const [key = '', index] = leaf.path.split('.');
    const row = index === undefined ? undefined : `${key}.${index}`;
    const reason =
      target === undefined
        ? MIGRATION_REASONS.removed
        : (reasons.get(leaf.path) ??
          (row !== undefined ? reasons.get(row) : undefined) ??
          reasons.get(key) ??
          (hidden.has(leaf.path) || hidden.has(key) || (row !== undefined && hidden.has(row))
            ? MIGRATION_REASONS.hidden
            : MIGRATION_REASONS.rejected));
    lost.push({ path: leaf.path, label, value: leaf.value, reason });
  }
  // calcs the new version adds
  for (const leaf of leaves(final))
    if (fieldAt(to, leaf.path)?.type === 'calc' && isBlankValue(valueAt(data, leaf.path)))
      recalculated.push({
        path: leaf.path,
        label: fieldAt(to, leaf.path)?.label ?? leaf.path,
        before: null,
        after: leaf.value,
      });
  return { data: final, carried, lost, recalculated };
}
