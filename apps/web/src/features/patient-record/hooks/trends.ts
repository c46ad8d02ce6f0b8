import type { FormRecordVO } from '@registry/shared/contracts/form-record';
import type { AnyField, Definition, FieldDefinition, FormDefinition } from '@registry/shared/forms/definition';
import { NUMERIC_FIELD_TYPES } from '@registry/shared/forms/field-types';

/** One value of a numeric field at a date: an instance of a repeating form, or a row of a group. */
export type TrendPoint = {
  /** `YYYY-MM-DD` (or `YYYY-MM-DDTHH:mm`): the form's (or row's) date field, else the record's date. */
  at: string;
  value: number;
  /** Where it comes from: `第2次`, `第1次 第3行`. */
  where: string;
  recordId: string | null;
  /** The date is the record's own (no date field held a value). */
  recordDate: boolean;
};

export type TrendSeries = {
  /** `formKey.fieldKey` or `formKey.groupKey.columnKey`. */
  id: string;
  label: string;
  formTitle: string;
  unit?: string;
  normalLow?: number;
  normalHigh?: number;
  /** The date field the points are placed by (its label), or null: the record's date. */
  dateLabel: string | null;
  points: TrendPoint[];
};

const isNumeric = (field: AnyField) => NUMERIC_FIELD_TYPES.includes(field.type);
const isDate = (field: AnyField) => field.type === 'date' || field.type === 'datetime';

function dateValue(value: unknown): string | null {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? value : null;
}

/** The forms whose records can give a trend: repeating forms with numbers, forms with groups holding numbers. */
export function trendForms(definition: Definition): FormDefinition[] {
  return definition.categories
    .flatMap((c) => c.forms)
    .filter(
      (form) =>
        (form.repeating && form.fields.some(isNumeric)) ||
        form.fields.some((f) => f.type === 'group' && (f.fields ?? []).some(isNumeric)),
    );
}

function series(form: FormDefinition, field: AnyField, id: string, label: string, date: AnyField | undefined) {
  return {
    id,
    label,
    formTitle: form.title,
    ...(field.unit ? { unit: field.unit } : {}),
    ...(field.normalLow !== undefined ? { normalLow: field.normalLow } : {}),
    ...(field.normalHigh !== undefined ? { normalHigh: field.normalHigh } : {}),
    dateLabel: date?.label ?? null,
    points: [] as TrendPoint[],
  };
}

/**
 * The numeric fields of a patient's records over time: each numeric field of a repeating form across its instances,
 * and each numeric column of a group across its rows (and instances), dated by a date field of the same form (or row)
 * when it holds a value, else by the record's date. Points are in date order; series without points are left out.
 */
export function buildTrends(definition: Definition, records: readonly FormRecordVO[]): TrendSeries[] {
  const out: TrendSeries[] = [];
  for (const form of trendForms(definition)) {
    const own = records.filter((r) => r.formKey === form.key && r.id !== null);
    if (own.length === 0) continue;
    const formDate = form.fields.find(isDate);
    const recordDate = (r: FormRecordVO) => (formDate ? dateValue(r.data[formDate.key]) : null);
    const fallback = (r: FormRecordVO) => (r.createdAt ?? r.updatedAt ?? '').slice(0, 10);
    const instanceText = (r: FormRecordVO) => (form.repeating ? `第${r.instance}次` : '');

    if (form.repeating) {
      for (const field of form.fields.filter(isNumeric)) {
        const s = series(form, field, `${form.key}.${field.key}`, field.label, formDate);
        for (const r of own) {
          const value = r.data[field.key];
          if (typeof value !== 'number' || !Number.isFinite(value)) continue;
          const at = recordDate(r);
          s.points.push({ at: at ?? fallback(r), value, where: instanceText(r), recordId: r.id, recordDate: !at });
        }
        if (s.points.length > 0) out.push(s);
      }
    }

    for (const group of form.fields.filter((f): f is FieldDefinition => f.type === 'group')) {
      const columns = group.fields ?? [];
      const rowDate = columns.find(isDate);
      for (const column of columns.filter(isNumeric)) {
        const s = series(
          form,
          column,
          `${form.key}.${group.key}.${column.key}`,
          `${group.label}「${column.label}」`,
          rowDate ?? formDate,
        );
        for (const r of own) {
          const rows = r.data[group.key];
          if (!Array.isArray(rows)) continue;
          rows.forEach((row: unknown, index) => {
            if (typeof row !== 'object' || row === null) return;
            const cells = row as Record<string, unknown>;
            const value = cells[column.key];
            if (typeof value !== 'number' || !Number.isFinite(value)) return;
            const at = (rowDate ? dateValue(cells[rowDate.key]) : null) ?? recordDate(r);
            const where = [instanceText(r), `第${index + 1}行`].filter(Boolean).join(' ');
            s.points.push({ at: at ?? fallback(r), value, where, recordId: r.id, recordDate: !at });
          });
        }
        if (s.points.length > 0) out.push(s);
      }
    }
  }
  for (const s of out) s.points.sort((a, b) => a.at.localeCompare(b.at));
  return out;
}
