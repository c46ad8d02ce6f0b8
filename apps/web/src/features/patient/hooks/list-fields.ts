import type { PublishedResponse } from '@registry/shared/contracts/form-definition';
import type { FieldFilterOp } from '@registry/shared/contracts/patient';
import type { Definition, FieldDefinition, FieldOption, MissingCode } from '@registry/shared/forms/definition';
import { YES_NO_OPTIONS, type FieldType } from '@registry/shared/forms/field-types';

/** How a list column is filtered: a select of its options, a range, or a "contains" text. */
export type FilterKind = 'choice' | 'dict' | 'number' | 'date' | 'text' | 'none';

/** The choice filter's entries for "no value" and "any value" (sent as the `empty` / `notEmpty` operations). */
export const EMPTY_CHOICE = '__empty__';
export const NOT_EMPTY_CHOICE = '__not_empty__';

/** A list-flagged CRF field (`listColumn`) as the patient list shows it: a column, a filter, a sort. */
export type ListField = {
  key: string;
  label: string;
  type: FieldType;
  formTitle: string;
  unit?: string;
  precision?: number;
  options: readonly FieldOption[];
  dictCode?: string;
  phi: boolean;
  /** The definition's missing-data codes this field accepts. */
  missingCodes: readonly MissingCode[];
  filter: FilterKind;
};

/** The column key of a CRF field in the page layout and the `field:<key>` sort of the page call. */
export const fieldColumnKey = (fieldKey: string) => `field:${fieldKey}`;

function filterKind(type: FieldType): FilterKind {
  switch (type) {
    case 'radio':
    case 'checkbox':
    case 'yesno':
      return 'choice';
    case 'dict':
      return 'dict';
    case 'integer':
    case 'decimal':
    case 'calc':
      return 'number';
    case 'date':
    case 'datetime':
    case 'partialDate':
      return 'date';
    case 'text':
    case 'textarea':
    case 'richtext':
      return 'text';
    default:
      return 'none';
  }
}

function fromDefinition(definition: Definition): ListField[] {
  const out: ListField[] = [];
  for (const category of definition.categories)
    for (const form of category.forms)
      for (const field of form.fields) {
        // The server reads values of the data fields it can compare (no group, layout or file field).
        // A field bound to the patient record is the patient's own column (姓名, 性别, …): the server has no second one.
        if (!field.listColumn || field.binding !== undefined || filterKind(field.type) === 'none') continue;
        out.push(toListField(field, form.title, definition.missingCodes));
      }
  return out;
}

function toListField(field: FieldDefinition, formTitle: string, allCodes: readonly MissingCode[]): ListField {
  const codes = (field.missingCodes ?? []).map(
    (code) => allCodes.find((c) => c.code === code) ?? { code, label: code },
  );
  return {
    key: field.key,
    label: field.label,
    type: field.type,
    formTitle,
    ...(field.unit ? { unit: field.unit } : {}),
    ...(field.precision !== undefined ? { precision: field.precision } : {}),
    options: field.type === 'yesno' ? YES_NO_OPTIONS : (field.options ?? []),
    ...(field.dictCode ? { dictCode: field.dictCode } : {}),
    phi: field.phi ?? false,
    missingCodes: codes,
    filter: filterKind(field.type),
  };
}

/**
 * The list-flagged fields of the definitions data is entered on: a sub-project's parent's first, then its own (field
 * keys are unique across both).
 */
export function listFieldsOf(published: PublishedResponse | undefined): ListField[] {
  if (!published) return [];
  const seen = new Set<string>();
  const out: ListField[] = [];
  for (const version of [published.parent, published.own]) {
    if (!version) continue;
    for (const field of fromDefinition(version.definition)) {
      if (seen.has(field.key)) continue;
      seen.add(field.key);
      out.push(field);
    }
  }
  return out;
}

function stripHtml(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function formatNumber(field: ListField, value: number): string {
  const text =
    field.precision !== undefined && field.type !== 'integer' ? value.toFixed(field.precision) : String(value);
  return field.unit ? `${text} ${field.unit}` : text;
}

/**
 * A CRF value as the list shows it: option labels for choices (dictionary labels from `dictLabels`), numbers with
 * their unit, a missing-data code as its label, '' for no value.
 */
export function formatFieldValue(field: ListField, value: unknown, dictLabels?: ReadonlyMap<string, string>): string {
  if (value === undefined || value === null || value === '') return '';
  if (Array.isArray(value) && value.length === 0) return '';
  if (typeof value === 'string') {
    const missing = field.missingCodes.find((c) => c.code === value);
    if (missing) return missing.label;
  }
  const optionLabel = (code: unknown) => {
    const c = String(code);
    return field.options.find((o) => o.code === c)?.label ?? c;
  };
  switch (field.filter) {
    case 'choice':
      return Array.isArray(value) ? value.map(optionLabel).join('、') : optionLabel(value);
    case 'dict': {
      const codes = Array.isArray(value) ? value.map(String) : [String(value)];
      return codes.map((c) => dictLabels?.get(c) ?? c).join('、');
    }
    case 'number':
      return typeof value === 'number' ? formatNumber(field, value) : String(value);
    case 'text':
      return field.type === 'richtext' && typeof value === 'string' ? stripHtml(value) : String(value);
    default:
      if (field.type === 'file' && Array.isArray(value)) return `${value.length} 个文件`;
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}

/** True when the value is one of the field's missing-data codes (shown as a tag). */
export function isMissingCode(field: ListField, value: unknown): boolean {
  return typeof value === 'string' && field.missingCodes.some((c) => c.code === value);
}

/** The filter operations a field offers, by kind. */
export const FILTER_OPS: Readonly<Record<FilterKind, readonly FieldFilterOp[]>> = {
  choice: ['eq'],
  dict: ['eq'],
  number: ['gte', 'lte'],
  date: ['gte', 'lte'],
  text: ['contains'],
  none: [],
};
