import { useMemo } from 'react';
import type { PublishedResponse } from '@registry/shared/contracts/form-definition';
import type { FieldDefinition, FormDefinition } from '@registry/shared/forms/definition';
import { LAYOUT_FIELD_TYPES, YES_NO_OPTIONS } from '@registry/shared/forms/field-types';
import { usePublished } from '../../../../api/form-definitions';

export type FormInfo = Pick<FormDefinition, 'key' | 'title' | 'fields'> & { followUp: boolean; repeating: boolean };

/** The published forms a plan can refer to: a sub-project's parent's first, then its own. */
export function definitionForms(published: PublishedResponse | undefined): FormInfo[] {
  const seen = new Set<string>();
  const forms: FormInfo[] = [];
  for (const version of [published?.parent, published?.own]) {
    for (const category of version?.definition.categories ?? []) {
      for (const form of category.forms) {
        if (seen.has(form.key)) continue;
        seen.add(form.key);
        forms.push({
          key: form.key,
          title: form.title,
          fields: form.fields,
          followUp: Boolean(form.followUp),
          repeating: Boolean(form.repeating),
        });
      }
    }
  }
  return forms;
}

/** Options of a visit's forms: follow-up forms first and marked. */
export function visitFormOptions(forms: readonly FormInfo[]) {
  const sorted = [...forms.filter((f) => f.followUp), ...forms.filter((f) => !f.followUp)];
  return sorted.map((f) => ({ value: f.key, label: f.followUp ? `${f.title}（随访表单）` : f.title }));
}

/** Non-repeating forms (one record per patient): the only ones an anchor or a rule may read. */
export const singleForms = (forms: readonly FormInfo[]) => forms.filter((f) => !f.repeating);

export const dateFields = (form: FormInfo | undefined) => (form?.fields ?? []).filter((f) => f.type === 'date');

/** Fields a rule can test: those holding one value per patient (no layout, group or file). */
export const ruleFields = (form: FormInfo | undefined) =>
  (form?.fields ?? []).filter((f) => !LAYOUT_FIELD_TYPES.includes(f.type) && f.type !== 'group' && f.type !== 'file');

/** The codes a choice field's rule may list (null: free values). */
export function fieldValueOptions(field: FieldDefinition | undefined): { value: string; label: string }[] | null {
  if (!field) return null;
  if (field.type === 'yesno') return YES_NO_OPTIONS.map((o) => ({ value: o.code, label: o.label }));
  if (field.type === 'radio' || field.type === 'checkbox')
    return (field.options ?? []).map((o) => ({ value: o.code, label: o.label }));
  return null;
}

export function useDefinitionForms() {
  const published = usePublished();
  const forms = useMemo(() => definitionForms(published.data), [published.data]);
  return { forms, isPending: published.isPending };
}
