import type {
  AnyField,
  CategoryDefinition,
  Definition,
  FieldDefinition,
  FormDefinition,
  GroupColumn,
} from '@registry/shared/forms/definition';
import { CHOICE_FIELD_TYPES, FIELD_TYPE_LABELS, type FieldType } from '@registry/shared/forms/field-types';

/** Where a field sits: a form's own field, or (with `columnKey`) a column of that group field. */
export type FieldRef = { formKey: string; fieldKey: string; columnKey?: string | null };

/** Every key in use (categories, forms, fields and group columns): new keys must avoid them all. */
export function collectKeys(...definitions: (Definition | null | undefined)[]): Set<string> {
  const keys = new Set<string>();
  for (const definition of definitions) {
    for (const category of definition?.categories ?? []) {
      keys.add(category.key);
      for (const form of category.forms) {
        keys.add(form.key);
        for (const field of form.fields) {
          keys.add(field.key);
          for (const column of field.fields ?? []) keys.add(column.key);
        }
      }
    }
  }
  return keys;
}

/** The first `prefix_N` not in `taken`. */
export function nextKey(prefix: string, taken: ReadonlySet<string>): string {
  const base = prefix.toLowerCase().replace(/[^a-z0-9_]/g, '') || 'field';
  const start = /^[a-z]/.test(base) ? base : `f_${base}`;
  for (let n = 1; ; n += 1) {
    const key = `${start}_${n}`;
    if (!taken.has(key)) return key;
  }
}

export function findForm(definition: Definition, formKey: string): FormDefinition | undefined {
  for (const category of definition.categories) {
    const form = category.forms.find((f) => f.key === formKey);
    if (form) return form;
  }
  return undefined;
}

export function findCategoryOfForm(definition: Definition, formKey: string): CategoryDefinition | undefined {
  return definition.categories.find((c) => c.forms.some((f) => f.key === formKey));
}

export function findField(definition: Definition, ref: FieldRef): AnyField | undefined {
  const field = findForm(definition, ref.formKey)?.fields.find((f) => f.key === ref.fieldKey);
  if (!field || !ref.columnKey) return field;
  return field.fields?.find((c) => c.key === ref.columnKey);
}

/** A new field of `type` with the defaults a designer expects (a label, two options for a choice). */
export function newField(type: FieldType, key: string): FieldDefinition {
  const field: FieldDefinition = { key, label: FIELD_TYPE_LABELS[type], type };
  if (CHOICE_FIELD_TYPES.includes(type)) {
    field.options = [
      { code: '1', label: '选项1' },
      { code: '2', label: '选项2' },
    ];
  }
  if (type === 'group') field.fields = [];
  if (type === 'calc') field.formula = '';
  return field;
}

function arrayMove<T>(items: T[], from: number, to: number): T[] {
  const next = [...items];
  const [moved] = next.splice(from, 1);
  if (moved === undefined) return items;
  next.splice(to, 0, moved);
  return next;
}

function mapForms(definition: Definition, formKey: string, fn: (form: FormDefinition) => FormDefinition): Definition {
  return {
    ...definition,
    categories: definition.categories.map((category) =>
      category.forms.some((f) => f.key === formKey)
        ? { ...category, forms: category.forms.map((f) => (f.key === formKey ? fn(f) : f)) }
        : category,
    ),
  };
}

/** Properties that always stay (an empty label is kept as '' and reported, not removed). */
const KEPT = new Set(['key', 'label', 'title', 'type']);

/** Sets or (with undefined, '' or an empty list) removes properties. */
function applyPatch<T extends object>(target: T, patch: Partial<Record<keyof T, unknown>>): T {
  const next: Record<string, unknown> = { ...(target as Record<string, unknown>) };
  for (const [name, value] of Object.entries(patch)) {
    const emptyList = Array.isArray(value) && value.length === 0 && name !== 'fields' && name !== 'options';
    if (!KEPT.has(name) && (value === undefined || value === null || value === '' || emptyList)) {
      delete next[name];
    } else {
      next[name] = value;
    }
  }
  return next as T;
}

export const ops = {
  addCategory(definition: Definition, category: { key: string; title: string }): Definition {
    return { ...definition, categories: [...definition.categories, { ...category, forms: [] }] };
  },

  updateCategory(definition: Definition, key: string, patch: { key?: string; title?: string }): Definition {
    return {
      ...definition,
      categories: definition.categories.map((c) => (c.key === key ? { ...c, ...patch } : c)),
    };
  },

  deleteCategory(definition: Definition, key: string): Definition {
    return { ...definition, categories: definition.categories.filter((c) => c.key !== key) };
  },

  moveCategory(definition: Definition, key: string, toIndex: number): Definition {
    const from = definition.categories.findIndex((c) => c.key === key);
    if (from < 0) return definition;
    return { ...definition, categories: arrayMove(definition.categories, from, toIndex) };
  },

  addForm(definition: Definition, categoryKey: string, form: FormDefinition): Definition {
    return {
      ...definition,
      categories: definition.categories.map((c) => (c.key === categoryKey ? { ...c, forms: [...c.forms, form] } : c)),
    };
  },

  updateForm(definition: Definition, formKey: string, patch: Partial<Omit<FormDefinition, 'fields'>>): Definition {
    return mapForms(definition, formKey, (form) => applyPatch(form, patch));
  },

  deleteForm(definition: Definition, formKey: string): Definition {
    return {
      ...definition,
      categories: definition.categories.map((c) => ({ ...c, forms: c.forms.filter((f) => f.key !== formKey) })),
    };
  },

  /** Moves a form into `categoryKey` at `index` (within the same category or to another one). */
  moveForm(definition: Definition, formKey: string, categoryKey: string, index: number): Definition {
    const form = findForm(definition, formKey);
    if (!form) return definition;
    const without = ops.deleteForm(definition, formKey);
    return {
      ...without,
      categories: without.categories.map((c) => {
        if (c.key !== categoryKey) return c;
        const forms = [...c.forms];
        forms.splice(Math.max(0, Math.min(index, forms.length)), 0, form);
        return { ...c, forms };
      }),
    };
  },

  /** Inserts `field` after `afterKey` (or at the end). */
  addField(definition: Definition, formKey: string, field: FieldDefinition, afterKey?: string | null): Definition {
    return mapForms(definition, formKey, (form) => {
      const at = afterKey ? form.fields.findIndex((f) => f.key === afterKey) : -1;
      const fields = [...form.fields];
      fields.splice(at < 0 ? fields.length : at + 1, 0, field);
      return { ...form, fields };
    });
  },

  addColumn(definition: Definition, formKey: string, groupKey: string, column: GroupColumn): Definition {
    return mapForms(definition, formKey, (form) => ({
      ...form,
      fields: form.fields.map((f) => (f.key === groupKey ? { ...f, fields: [...(f.fields ?? []), column] } : f)),
    }));
  },

  updateField(
    definition: Definition,
    ref: FieldRef,
    patch: Partial<Record<keyof FieldDefinition, unknown>>,
  ): Definition {
    return mapForms(definition, ref.formKey, (form) => ({
      ...form,
      fields: form.fields.map((f) => {
        if (f.key !== ref.fieldKey) return f;
        if (!ref.columnKey) return applyPatch(f, patch);
        return { ...f, fields: (f.fields ?? []).map((c) => (c.key === ref.columnKey ? applyPatch(c, patch) : c)) };
      }),
    }));
  },

  deleteField(definition: Definition, ref: FieldRef): Definition {
    return mapForms(definition, ref.formKey, (form) => ({
      ...form,
      fields: ref.columnKey
        ? form.fields.map((f) =>
            f.key === ref.fieldKey ? { ...f, fields: (f.fields ?? []).filter((c) => c.key !== ref.columnKey) } : f,
          )
        : form.fields.filter((f) => f.key !== ref.fieldKey),
    }));
  },

  /** A copy of the field right after it, with new keys (`taken` = keys in use). Returns the new definition and key. */
  duplicateField(definition: Definition, ref: FieldRef, taken: Set<string>): { definition: Definition; key: string } {
    const source = findField(definition, ref);
    if (!source) return { definition, key: ref.columnKey ?? ref.fieldKey };
    const key = nextKey(source.key.replace(/_copy(_\d+)?$/, '').concat('_copy'), taken);
    taken.add(key);
    const copy = structuredClone(source);
    copy.key = key;
    copy.label = `${source.label}（副本）`;
    if ('fields' in copy && copy.fields) {
      copy.fields = copy.fields.map((c) => {
        const columnKey = nextKey(c.key, taken);
        taken.add(columnKey);
        return { ...c, key: columnKey };
      });
    }
    const next = mapForms(definition, ref.formKey, (form) => {
      if (ref.columnKey) {
        return {
          ...form,
          fields: form.fields.map((f) => {
            if (f.key !== ref.fieldKey) return f;
            const columns = [...(f.fields ?? [])];
            const at = columns.findIndex((c) => c.key === ref.columnKey);
            columns.splice(at + 1, 0, copy as GroupColumn);
            return { ...f, fields: columns };
          }),
        };
      }
      const fields = [...form.fields];
      const at = fields.findIndex((f) => f.key === ref.fieldKey);
      fields.splice(at + 1, 0, copy as FieldDefinition);
      return { ...form, fields };
    });
    return { definition: next, key };
  },

  moveField(definition: Definition, formKey: string, fromKey: string, toKey: string): Definition {
    return mapForms(definition, formKey, (form) => {
      const from = form.fields.findIndex((f) => f.key === fromKey);
      const to = form.fields.findIndex((f) => f.key === toKey);
      return from < 0 || to < 0 ? form : { ...form, fields: arrayMove(form.fields, from, to) };
    });
  },

  moveColumn(definition: Definition, formKey: string, groupKey: string, fromKey: string, toKey: string): Definition {
    return mapForms(definition, formKey, (form) => ({
      ...form,
      fields: form.fields.map((f) => {
        if (f.key !== groupKey) return f;
        const columns = f.fields ?? [];
        const from = columns.findIndex((c) => c.key === fromKey);
        const to = columns.findIndex((c) => c.key === toKey);
        return from < 0 || to < 0 ? f : { ...f, fields: arrayMove(columns, from, to) };
      }),
    }));
  },

  /** Replaces the draft with `imported`, or appends its categories (a category of the same key takes its forms). */
  merge(definition: Definition, imported: Definition, mode: 'replace' | 'append'): Definition {
    if (mode === 'replace') return imported;
    const categories = definition.categories.map((c) => ({ ...c, forms: [...c.forms] }));
    for (const category of imported.categories) {
      const same = categories.find((c) => c.key === category.key);
      if (same) same.forms.push(...category.forms);
      else categories.push(category);
    }
    const codes = new Set(definition.missingCodes.map((m) => m.code));
    return {
      categories,
      missingCodes: [...definition.missingCodes, ...imported.missingCodes.filter((m) => !codes.has(m.code))],
    };
  },
};

/** Counts the fields of a form (group columns included). */
export function countFields(form: FormDefinition): number {
  return form.fields.reduce((n, f) => n + 1 + (f.fields?.length ?? 0), 0);
}

/** Every data field of a definition as `{ key, label, formTitle }` (for the 插入字段 picker). */
export function listFieldChoices(
  ...definitions: (Definition | null | undefined)[]
): { key: string; label: string; formTitle: string }[] {
  const out: { key: string; label: string; formTitle: string }[] = [];
  for (const definition of definitions) {
    for (const category of definition?.categories ?? []) {
      for (const form of category.forms) {
        for (const field of form.fields) {
          if (field.type === 'section' || field.type === 'description') continue;
          out.push({ key: field.key, label: field.label, formTitle: form.title });
          for (const column of field.fields ?? []) {
            if (column.type === 'section' || column.type === 'description') continue;
            out.push({ key: column.key, label: `${field.label} › ${column.label}`, formTitle: form.title });
          }
        }
      }
    }
  }
  return out;
}
