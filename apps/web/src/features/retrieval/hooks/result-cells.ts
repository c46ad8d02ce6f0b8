import type { CohortField, CohortForms } from '@registry/shared/cohort/check';
import type { CohortCellValue, CohortColumn } from '@registry/shared/contracts/retrieval';
import { parseNodeValue } from './field-tree';

/**
 * A chosen result column: its keys, its `form.field` key (of the row's `values` and the sort), the field's definition
 * (undefined once it left the forms: the server then refuses it) and its form's title.
 */
export type ResultColumn = CohortColumn & {
  key: string;
  definition: CohortField | undefined;
  formTitle: string;
};

/** The chooser's picked node values (`form/field`) as the result's columns, in the order picked. */
export function resultColumns(picked: readonly string[], forms: CohortForms): ResultColumn[] {
  return picked.flatMap((value) => {
    const [form, field] = parseNodeValue(value);
    if (!form || !field) return [];
    const f = forms.find((x) => x.key === form);
    const definition = f?.fields.find((x) => x.key === field);
    return [{ form, field, key: `${form}.${field}`, definition, formTitle: f?.title ?? form }];
  });
}

/**
 * The label of an option code of a radio, yes/no or checkbox field, or of a dict field (`dictLabels`, read for the
 * page); the code itself when it has none (a missing-data code, a retired option).
 */
function optionLabel(field: CohortField | undefined, code: string, dictLabels?: ReadonlyMap<string, string>): string {
  const dict = dictLabels?.get(code);
  if (dict !== undefined) return dict;
  const i = field?.options?.indexOf(code) ?? -1;
  return i >= 0 ? (field?.optionLabels?.[i] ?? code) : code;
}

/** A stored value as the table shows it: option codes as their labels (a checkbox's joined by 、), blank as ''. */
export function formatCell(
  field: CohortField | undefined,
  value: CohortCellValue | undefined,
  dictLabels?: ReadonlyMap<string, string>,
): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map((code) => optionLabel(field, code, dictLabels)).join('、');
  if (typeof value === 'number') return String(value);
  return optionLabel(field, value, dictLabels);
}
