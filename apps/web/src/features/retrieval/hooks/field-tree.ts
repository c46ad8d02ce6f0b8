import type { CohortField, CohortForm, CohortForms } from '@registry/shared/cohort/check';
import { fieldSearchKind } from '@registry/shared/cohort/operators';

/** A category of the published definition and its forms' keys, in the designer's order. */
export type CohortCategory = { key: string; title: string; formKeys: readonly string[] };

/** A node of the builder's pickers (antd TreeSelect's data): `search` is what the search box matches. */
export type TreeNode = {
  value: string;
  title: string;
  search: string;
  selectable?: boolean;
  children?: TreeNode[];
};

/**
 * A picked node's value: `form/field` (a form's field), `form/group/column` (a column of a table), `form` (a
 * repeating form's records) or `form/group` (a table's rows). Keys are variable names (`[a-z][a-z0-9_]*`), never `/`.
 */
export const nodeValue = (...keys: string[]) => keys.join('/');
export const parseNodeValue = (value: string) => value.split('/');

const searchable = (f: CohortField) => fieldSearchKind(f.type) !== null;
const node = (value: string, title: string, key: string, rest: Partial<TreeNode> = {}): TreeNode => ({
  value,
  title,
  search: `${title} ${key}`.toLowerCase(),
  ...rest,
});

/** The forms under their categories (forms of no category last); without categories, the forms alone. */
function underCategories(
  forms: CohortForms,
  categories: readonly CohortCategory[] | undefined,
  formNode: (form: CohortForm) => TreeNode | null,
): TreeNode[] {
  const byKey = new Map(forms.map((f) => [f.key, f]));
  const nodes = (keys: readonly string[]) =>
    keys.flatMap((k) => {
      const form = byKey.get(k);
      const n = form ? formNode(form) : null;
      return n ? [n] : [];
    });
  if (!categories) return nodes(forms.map((f) => f.key));
  const listed = new Set(categories.flatMap((c) => c.formKeys));
  const tree = categories.flatMap((c) => {
    const children = nodes(c.formKeys);
    return children.length === 0 ? [] : [node(`category:${c.key}`, c.title, c.key, { selectable: false, children })];
  });
  return [...tree, ...nodes(forms.map((f) => f.key).filter((k) => !listed.has(k)))];
}

/**
 * Categories → forms → searchable fields, a table's searchable columns under it (`keep`: which fields to list, e.g.
 * the date fields of `withinDaysOf`). Forms and tables are not selectable; a form with nothing to list is left out.
 */
export function fieldTree(
  forms: CohortForms,
  categories?: readonly CohortCategory[],
  keep: (f: CohortField) => boolean = () => true,
): TreeNode[] {
  return underCategories(forms, categories, (form) => {
    const children = form.fields.flatMap((f): TreeNode[] => {
      if (f.type === 'group') {
        const columns = (f.columns ?? [])
          .filter((c) => searchable(c) && keep(c))
          .map((c) => node(nodeValue(form.key, f.key, c.key), c.label, c.key));
        return columns.length === 0
          ? []
          : [node(`table:${form.key}/${f.key}`, f.label, f.key, { selectable: false, children: columns })];
      }
      return searchable(f) && keep(f) ? [node(nodeValue(form.key, f.key), f.label, f.key)] : [];
    });
    return children.length === 0
      ? null
      : node(`form:${form.key}`, form.title, form.key, { selectable: false, children });
  });
}

/**
 * What a row group may be over: a repeating form (“同一条记录”) or a table of any form (“同一行”), under categories.
 */
export function rowsTree(forms: CohortForms, categories?: readonly CohortCategory[]): TreeNode[] {
  return underCategories(forms, categories, (form) => {
    const tables = form.fields
      .filter((f) => f.type === 'group' && (f.columns ?? []).some(searchable))
      .map((f) => node(nodeValue(form.key, f.key), `${f.label}（表格）`, f.key));
    if (!form.repeating && tables.length === 0) return null;
    return node(form.repeating ? nodeValue(form.key) : `form:${form.key}`, form.title, form.key, {
      selectable: form.repeating,
      ...(tables.length > 0 ? { children: tables } : {}),
    });
  });
}

/** TreeSelect's search: a node matches by its label or its key (`search`), case-insensitively. */
export const filterTreeNode = (input: string, n: object) => {
  const search = (n as { search?: unknown }).search;
  return typeof search === 'string' && search.includes(input.trim().toLowerCase());
};

/**
 * What a result table may show (显示列): categories → non-repeating forms → their own searchable fields (`form/field`).
 * A repeating form's fields and a table's columns are left out: the server refuses them as columns (which record,
 * which row would be "the" value is not one answer).
 */
export function columnTree(forms: CohortForms, categories?: readonly CohortCategory[]): TreeNode[] {
  return underCategories(forms, categories, (form) => {
    if (form.repeating) return null;
    const children = form.fields
      .filter((f) => f.type !== 'group' && searchable(f))
      .map((f) => node(nodeValue(form.key, f.key), f.label, f.key));
    return children.length === 0
      ? null
      : node(`form:${form.key}`, form.title, form.key, { selectable: false, children });
  });
}
