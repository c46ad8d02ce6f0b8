import type { FieldFilter, FieldFilterOp } from '@registry/shared/contracts/patient';
import { FIELD_KEY_PATTERN, YES_NO_OPTIONS, type Definition, type FieldType } from '@registry/shared/forms/definition';
import { listForms } from '@registry/shared/forms/walk';
import { AppError } from '../../lib/errors';

/**
 * The CRF columns of the patient list: the list-flagged (`listColumn`) data fields (not bound to the patient record) of the published definitions of the
 * project (and of its parent, for a sub-project), read from the first instance of their form. Pure: the service loads
 * the definitions, the repository turns the checked conditions into SQL.
 */

/** How a field's stored value compares: numbers, dates (ISO text), free text, one option code, a list of codes. */
export type ListFieldKind = 'number' | 'date' | 'text' | 'choice' | 'multi';

export type ListField = {
  key: string;
  label: string;
  formKey: string;
  kind: ListFieldKind;
  type: FieldType;
  /** Personal health information: the value is withheld, filtering and sorting refused without `patient.pii`. */
  phi: boolean;
  /** Option codes of a radio / yes-no / checkbox field (a dict field's codes live in its option list). */
  codes: readonly string[] | null;
  dictCode: string | null;
  /** Missing-data codes the field accepts (an `eq` filter may name one). */
  missingCodes: readonly string[];
};

/** A filter checked against its field: the value normalised to what the stored data hold. */
export type FieldCondition =
  | { field: ListField; op: 'empty' | 'notEmpty' }
  | { field: ListField; op: 'eq'; value: string | number }
  | { field: ListField; op: 'contains'; value: string }
  | { field: ListField; op: 'gte' | 'lte'; value: string | number };

/** A dictionary code a filter names: checked against the option lists by the caller. */
export type DictProbe = { index: number; label: string; dictCode: string; code: string };

const KIND_OF: Partial<Record<FieldType, ListFieldKind>> = {
  integer: 'number',
  decimal: 'number',
  calc: 'number',
  date: 'date',
  datetime: 'date',
  partialDate: 'date',
  text: 'text',
  textarea: 'text',
  richtext: 'text',
  radio: 'choice',
  yesno: 'choice',
  dict: 'choice',
  checkbox: 'multi',
};

/** The list-flagged fields of the given definitions, in definition order (a key appears once). */
export function listColumnFields(definitions: readonly Definition[]): ListField[] {
  const out: ListField[] = [];
  const seen = new Set<string>();
  for (const definition of definitions) {
    for (const { form } of listForms(definition)) {
      for (const field of form.fields) {
        const kind = KIND_OF[field.type];
        // A field bound to the patient record is the patient's own column (姓名, 性别, …), never a second one.
        if (
          !field.listColumn ||
          field.binding !== undefined ||
          kind === undefined ||
          seen.has(field.key) ||
          !FIELD_KEY_PATTERN.test(field.key)
        )
          continue;
        seen.add(field.key);
        out.push({
          key: field.key,
          label: field.label,
          formKey: form.key,
          kind,
          type: field.type,
          phi: field.phi === true,
          codes:
            field.type === 'yesno'
              ? YES_NO_OPTIONS.map((o) => o.code)
              : field.type === 'radio' || field.type === 'checkbox'
                ? (field.options ?? []).map((o) => o.code)
                : null,
          dictCode: field.type === 'dict' ? (field.dictCode ?? null) : null,
          missingCodes: field.missingCodes ?? [],
        });
      }
    }
  }
  return out;
}

export const LIST_FIELD_MESSAGES = {
  notListField: (key: string) => `字段 ${key} 不是列表字段`,
  piiField: (label: string) => `没有查看患者身份信息的权限，不能按「${label}」筛选或排序`,
  valueRequired: (label: string) => `请输入「${label}」的筛选值`,
  number: (label: string) => `「${label}」的筛选值须为数字`,
  date: (label: string) => `「${label}」的筛选值须为日期（YYYY-MM-DD）`,
  option: (label: string, code: string) => `「${label}」没有编码为 ${code} 的选项`,
  opNotAllowed: (label: string, op: string) => `「${label}」不支持“${OP_LABELS[op as FieldFilterOp] ?? op}”筛选`,
} as const;

const OP_LABELS: Record<FieldFilterOp, string> = {
  eq: '等于',
  contains: '包含',
  gte: '大于等于',
  lte: '小于等于',
  empty: '为空',
  notEmpty: '不为空',
};

const ALLOWED_OPS: Record<ListFieldKind, readonly FieldFilterOp[]> = {
  number: ['eq', 'gte', 'lte', 'empty', 'notEmpty'],
  date: ['eq', 'gte', 'lte', 'empty', 'notEmpty'],
  text: ['eq', 'contains', 'empty', 'notEmpty'],
  choice: ['eq', 'empty', 'notEmpty'],
  multi: ['eq', 'empty', 'notEmpty'],
};

function isIsoDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/**
 * Checks the filters and the sort against the list fields: the key must be a list field (400 naming it), the operator
 * fit the field's kind, the value its type (numbers for numeric fields, `YYYY-MM-DD` for dates, option codes for
 * choices; an `eq` may name one of the field's missing-data codes). Without `pii`, a PHI field can be neither filtered
 * nor sorted on (403). Dictionary codes are returned for the caller to check against the option lists.
 */
export function checkFieldQuery(
  fields: readonly ListField[],
  filters: readonly FieldFilter[],
  sortField: string | undefined,
  pii: boolean,
): { conditions: FieldCondition[]; sort: ListField | undefined; dictCodes: DictProbe[] } {
  const byKey = new Map(fields.map((f) => [f.key, f]));
  const issues: { path: string; message: string }[] = [];
  let forbidden: string | null = null;
  const conditions: FieldCondition[] = [];
  const dictCodes: DictProbe[] = [];

  filters.forEach((filter, index) => {
    const path = `fieldFilters.${index}`;
    const field = byKey.get(filter.fieldKey);
    if (field === undefined) {
      issues.push({ path: `${path}.fieldKey`, message: LIST_FIELD_MESSAGES.notListField(filter.fieldKey) });
      return;
    }
    if (field.phi && !pii) forbidden ??= LIST_FIELD_MESSAGES.piiField(field.label);
    if (!ALLOWED_OPS[field.kind].includes(filter.op)) {
      issues.push({ path: `${path}.op`, message: LIST_FIELD_MESSAGES.opNotAllowed(field.label, filter.op) });
      return;
    }
    if (filter.op === 'empty' || filter.op === 'notEmpty') {
      conditions.push({ field, op: filter.op });
      return;
    }
    const raw = typeof filter.value === 'string' ? filter.value.trim() : filter.value;
    const bad = (message: string) => issues.push({ path: `${path}.value`, message });
    if (raw === undefined || raw === '') return void bad(LIST_FIELD_MESSAGES.valueRequired(field.label));
    if (filter.op === 'eq' && typeof raw === 'string' && field.missingCodes.includes(raw)) {
      conditions.push({ field, op: 'eq', value: raw });
      return;
    }
    if (filter.op === 'contains') {
      conditions.push({ field, op: 'contains', value: String(raw) });
      return;
    }
    switch (field.kind) {
      case 'number': {
        const n = typeof raw === 'number' ? raw : /^[+-]?(\d+\.?\d*|\.\d+)$/.test(raw) ? Number(raw) : Number.NaN;
        if (!Number.isFinite(n)) return void bad(LIST_FIELD_MESSAGES.number(field.label));
        conditions.push({ field, op: filter.op, value: n });
        return;
      }
      case 'date': {
        if (typeof raw !== 'string' || !isIsoDate(raw)) return void bad(LIST_FIELD_MESSAGES.date(field.label));
        conditions.push({ field, op: filter.op, value: raw });
        return;
      }
      case 'text':
        conditions.push({ field, op: 'eq', value: String(raw) });
        return;
      case 'choice':
      case 'multi': {
        const code = String(raw);
        if (field.codes !== null && !field.codes.includes(code))
          return void bad(LIST_FIELD_MESSAGES.option(field.label, code));
        if (field.dictCode !== null) dictCodes.push({ index, label: field.label, dictCode: field.dictCode, code });
        conditions.push({ field, op: 'eq', value: code });
        return;
      }
    }
  });

  let sort: ListField | undefined;
  if (sortField?.startsWith('field:')) {
    const key = sortField.slice('field:'.length);
    sort = byKey.get(key);
    if (sort === undefined) issues.push({ path: 'sortField', message: LIST_FIELD_MESSAGES.notListField(key) });
    else if (sort.phi && !pii) forbidden ??= LIST_FIELD_MESSAGES.piiField(sort.label);
  }

  if (issues.length > 0) throw new AppError(400, issues[0]?.message ?? '筛选条件不正确', issues);
  if (forbidden !== null) throw new AppError(403, forbidden);
  return { conditions, sort, dictCodes };
}

/** The record values of the list fields for one patient: PHI values null without `pii`, absent values null. */
export function pickFieldValues(
  fields: readonly ListField[],
  dataByForm: ReadonlyMap<string, Record<string, unknown>>,
  pii: boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const value = dataByForm.get(field.formKey)?.[field.key];
    out[field.key] = value === undefined || (field.phi && !pii) ? null : value;
  }
  return out;
}
