import type {
  AnyField,
  CategoryDefinition,
  Definition,
  FieldDefinition,
  FormDefinition,
  GroupColumn,
} from './definition';
import { LAYOUT_FIELD_TYPES } from './field-types';

/** Iteration over a definition with the path of each element (`categories.0.forms.1.fields.3`). */

export type FormEntry = {
  category: CategoryDefinition;
  form: FormDefinition;
  categoryIndex: number;
  formIndex: number;
  /** `categories.0.forms.1` */
  path: string;
};

export type FieldEntry = {
  category: CategoryDefinition;
  form: FormDefinition;
  field: AnyField;
  /** The group this field is a column of, or null for a form's own field. */
  group: FieldDefinition | null;
  /** `categories.0.forms.1.fields.3` or `categories.0.forms.1.fields.3.fields.0` for a group column. */
  path: string;
  /** `key` or `group.key` for a column. */
  qualifiedKey: string;
};

export function categoryPath(categoryIndex: number): string {
  return `categories.${categoryIndex}`;
}

export function formPath(categoryIndex: number, formIndex: number): string {
  return `categories.${categoryIndex}.forms.${formIndex}`;
}

/** Every form, in order. */
export function listForms(definition: Definition): FormEntry[] {
  const out: FormEntry[] = [];
  definition.categories.forEach((category, categoryIndex) => {
    category.forms.forEach((form, formIndex) => {
      out.push({ category, form, categoryIndex, formIndex, path: formPath(categoryIndex, formIndex) });
    });
  });
  return out;
}

/** The fields of one form (own fields, each group followed by its columns) with paths relative to `base`. */
export function listFormFields(
  form: FormDefinition,
  base = '',
): { field: AnyField; group: FieldDefinition | null; path: string; qualifiedKey: string }[] {
  const prefix = base === '' ? '' : `${base}.`;
  const out: { field: AnyField; group: FieldDefinition | null; path: string; qualifiedKey: string }[] = [];
  form.fields.forEach((field, fieldIndex) => {
    const path = `${prefix}fields.${fieldIndex}`;
    out.push({ field, group: null, path, qualifiedKey: field.key });
    if (field.type === 'group') {
      (field.fields ?? []).forEach((column, columnIndex) => {
        out.push({
          field: column,
          group: field,
          path: `${path}.fields.${columnIndex}`,
          qualifiedKey: `${field.key}.${column.key}`,
        });
      });
    }
  });
  return out;
}

/** Every field of the definition (group columns after their group), in order. */
export function listFields(definition: Definition): FieldEntry[] {
  const out: FieldEntry[] = [];
  for (const entry of listForms(definition)) {
    for (const item of listFormFields(entry.form, entry.path)) {
      out.push({ category: entry.category, form: entry.form, ...item });
    }
  }
  return out;
}

export function findCategory(definition: Definition, categoryKey: string): CategoryDefinition | undefined {
  return definition.categories.find((category) => category.key === categoryKey);
}

export function findForm(definition: Definition, formKey: string): FormDefinition | undefined {
  for (const category of definition.categories) {
    const form = category.forms.find((f) => f.key === formKey);
    if (form !== undefined) return form;
  }
  return undefined;
}

/** A form with its category and path. */
export function findFormEntry(definition: Definition, formKey: string): FormEntry | undefined {
  return listForms(definition).find((entry) => entry.form.key === formKey);
}

/** A field (or group column) anywhere in the definition, by key. */
export function findField(definition: Definition, fieldKey: string): FieldEntry | undefined {
  return listFields(definition).find((entry) => entry.field.key === fieldKey);
}

/** The form that holds a field (or group column), by the field's key. */
export function findFormOfField(definition: Definition, fieldKey: string): FormDefinition | undefined {
  return findField(definition, fieldKey)?.form;
}

/** A form's own field or group column, by key. */
export function findFormField(
  form: FormDefinition,
  fieldKey: string,
): { field: AnyField; group: FieldDefinition | null } | undefined {
  for (const field of form.fields) {
    if (field.key === fieldKey) return { field, group: null };
    if (field.type === 'group') {
      const column = (field.fields ?? []).find((c) => c.key === fieldKey);
      if (column !== undefined) return { field: column, group: field };
    }
  }
  return undefined;
}

/** Whether a field holds data (everything but section and description). */
export function holdsData(field: AnyField): boolean {
  return !LAYOUT_FIELD_TYPES.includes(field.type);
}

/** The columns of a group field (empty for other types). */
export function groupColumns(field: AnyField): GroupColumn[] {
  return field.type === 'group' && 'fields' in field ? (field.fields ?? []) : [];
}

/** Number of data-holding fields (group columns included, the group itself not). */
export function countDataFields(definition: Definition): number {
  return listFields(definition).filter((entry) => holdsData(entry.field) && entry.field.type !== 'group').length;
}
