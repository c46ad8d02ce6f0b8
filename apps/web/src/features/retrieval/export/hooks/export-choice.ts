import type { CohortForm, CohortForms } from '@registry/shared/cohort/check';
import type { ExportFormChoice } from '@registry/shared/contracts/export';
import { EXPORT_LIMITS } from '@registry/shared/contracts/export-codes';
import { LAYOUT_FIELD_TYPES } from '@registry/shared/forms/field-types';
import type { CohortCategory } from '../../hooks/field-tree';

/**
 * The choice of forms and fields of an export, as a checkbox tree: categories → forms → their data fields (a table
 * is one field: its rows are exported as a table of their own). Keys: `category:<key>`, `form:<key>`,
 * `field:<form>/<field>`; a form without data fields is a leaf itself.
 */
export type ChoiceNode = { key: string; title: string; children?: ChoiceNode[] };

const formNodeKey = (form: string) => `form:${form}`;
const fieldNodeKey = (form: string, field: string) => `field:${form}/${field}`;

/** The fields of a form that hold data (not its section titles and description texts). */
export function dataFields(form: CohortForm) {
  return form.fields.filter((f) => !LAYOUT_FIELD_TYPES.includes(f.type));
}

function formNode(form: CohortForm): ChoiceNode {
  const fields = dataFields(form);
  const node: ChoiceNode = { key: formNodeKey(form.key), title: form.title };
  if (fields.length > 0)
    node.children = fields.map((f) => ({
      key: fieldNodeKey(form.key, f.key),
      title: f.type === 'group' ? `${f.label}（表格）` : f.label,
    }));
  return node;
}

/** The tree: forms under their categories (in the designer's order), forms of no category after them. */
export function choiceTree(forms: CohortForms, categories: readonly CohortCategory[]): ChoiceNode[] {
  const byKey = new Map(forms.map((f) => [f.key, f]));
  const listed = new Set<string>();
  const tree: ChoiceNode[] = [];
  for (const category of categories) {
    const children = category.formKeys.flatMap((k) => {
      const form = byKey.get(k);
      if (!form || listed.has(k)) return [];
      listed.add(k);
      return [formNode(form)];
    });
    if (children.length > 0) tree.push({ key: `category:${category.key}`, title: category.title, children });
  }
  for (const form of forms) if (!listed.has(form.key)) tree.push(formNode(form));
  return tree;
}

/** The keys of the tree's leaves: what "everything chosen" checks. */
export function leafKeys(tree: readonly ChoiceNode[]): string[] {
  return tree.flatMap((n) => (n.children ? leafKeys(n.children) : [n.key]));
}

/** The keys of the categories (expanded at first; the forms are opened one by one to narrow their fields). */
export function categoryKeys(tree: readonly ChoiceNode[]): string[] {
  return tree.filter((n) => n.key.startsWith('category:')).map((n) => n.key);
}

/**
 * The request's `forms` for the checked keys (`null`: untouched, everything): `undefined` when every field of every
 * form is chosen (the server exports all), otherwise the forms with something chosen, `fields` only where a form was
 * narrowed. An empty array: nothing chosen.
 */
export function chosenForms(forms: CohortForms, checked: readonly string[] | null): ExportFormChoice[] | undefined {
  if (checked === null) return undefined;
  const set = new Set(checked);
  const chosen: ExportFormChoice[] = [];
  let narrowed = false;
  for (const form of forms) {
    const fields = dataFields(form);
    if (fields.length === 0) {
      if (set.has(formNodeKey(form.key))) chosen.push({ key: form.key });
      else narrowed = true;
      continue;
    }
    const keys = fields.filter((f) => set.has(fieldNodeKey(form.key, f.key))).map((f) => f.key);
    if (keys.length === 0) narrowed = true;
    else if (keys.length === fields.length) chosen.push({ key: form.key });
    else {
      narrowed = true;
      chosen.push({ key: form.key, fields: keys });
    }
  }
  return narrowed ? chosen : undefined;
}

/** What is wrong with a choice (Chinese, the contract's messages), or null. */
export function choiceProblem(choice: ExportFormChoice[] | undefined): string | null {
  if (choice === undefined) return null;
  if (choice.length === 0) return '请至少选择一个表单';
  if (choice.length > EXPORT_LIMITS.forms) return `最多选择${EXPORT_LIMITS.forms}个表单`;
  if (choice.some((c) => (c.fields?.length ?? 0) > EXPORT_LIMITS.fieldsPerForm))
    return `每个表单最多选择${EXPORT_LIMITS.fieldsPerForm}个字段`;
  return null;
}

/** "已选 N / M 个表单" for the tree's header. */
export function choiceSummary(forms: CohortForms, choice: ExportFormChoice[] | undefined): string {
  if (choice === undefined) return `全部 ${forms.length} 个表单`;
  const narrowed = choice.filter((c) => c.fields).length;
  return `已选 ${choice.length} / ${forms.length} 个表单${narrowed > 0 ? `（其中 ${narrowed} 个只选了部分字段）` : ''}`;
}
