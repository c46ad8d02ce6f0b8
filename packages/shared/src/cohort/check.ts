import type { AnyField, Definition, FormDefinition } from '../forms/definition';
import { FIELD_TYPE_LABELS, YES_NO_OPTIONS, type FieldType } from '../forms/field-types';
import { COHORT_OP_LABELS } from './cohort-codes';
import type { CohortDefinition, CohortGroup, CohortRowCondition } from './definition';
import { fieldOperand, fieldSearchKind, operandProblem } from './operators';

/**
 * The check of a cohort definition against a project's published form definition: everything the schema cannot see.
 * A definition with no issues evaluates (`evaluate.ts`) and compiles to SQL as written; one with issues must not be
 * run. An unknown form or field is named by the key the user sent, with the same message whether the key exists
 * elsewhere (another project, another tenant) or nowhere.
 */

/**
 * A field as the cohort sees it: its key, label, type, the option codes of a radio, checkbox or yes/no, and a group's
 * columns (a group field is not searchable itself; its columns are, inside a row group naming it: `definition.ts`).
 */
export type CohortField = {
  key: string;
  label: string;
  type: FieldType;
  options?: readonly string[];
  /** The labels of `options`, in the same order (what a builder shows; the codes are what a condition stores). */
  optionLabels?: readonly string[];
  /** A dict field's shared option list (`sys-field-dict-option`): a builder searches its codes there. */
  dictCode?: string;
  columns?: readonly CohortField[];
  /**
   * Personal health information: flagged `phi`, or bound to an identity attribute of the patient (any binding but
   * the gender; as `phiKeys` of the record API). A result column of it is withheld without `patient.pii`.
   */
  phi?: true;
};
/** A form of the published definition: its own fields (a group's columns are listed under the group field). */
export type CohortForm = { key: string; title: string; repeating: boolean; fields: readonly CohortField[] };
export type CohortForms = readonly CohortForm[];

function cohortFieldOf(f: AnyField): CohortField {
  const options: readonly { code: string; label: string }[] | undefined =
    f.type === 'yesno' ? YES_NO_OPTIONS : f.type === 'radio' || f.type === 'checkbox' ? (f.options ?? []) : undefined;
  const field: CohortField = { key: f.key, label: f.label, type: f.type };
  if (options) {
    field.options = options.map((o) => o.code);
    field.optionLabels = options.map((o) => o.label);
  }
  if (f.type === 'dict' && f.dictCode) field.dictCode = f.dictCode;
  const binding = 'binding' in f ? f.binding : undefined;
  if (f.phi === true || (binding !== undefined && binding !== 'patient.gender')) field.phi = true;
  if (f.type === 'group' && 'fields' in f) field.columns = (f.fields ?? []).map(cohortFieldOf);
  return field;
}

/** A form definition as the cohort sees it. */
export function cohortFormOf(form: FormDefinition): CohortForm {
  return {
    key: form.key,
    title: form.title,
    repeating: form.repeating === true,
    fields: form.fields.map(cohortFieldOf),
  };
}

/** Every form of a (published) definition, as the cohort sees them. */
export function cohortForms(definition: Pick<Definition, 'categories'>): CohortForm[] {
  return definition.categories.flatMap((c) => c.forms.map(cohortFormOf));
}

/** A group field of a form and its columns by key. */
export type IndexedGroup = { field: CohortField; columns: ReadonlyMap<string, CohortField> };
/** A form, its own fields by key, its group fields by key, and the group of each column key. */
export type IndexedForm = {
  form: CohortForm;
  fields: ReadonlyMap<string, CohortField>;
  groups: ReadonlyMap<string, IndexedGroup>;
  columnGroups: ReadonlyMap<string, CohortField>;
};
export type FormIndex = ReadonlyMap<string, IndexedForm>;

function indexForm(form: CohortForm): IndexedForm {
  const groups = new Map<string, IndexedGroup>();
  const columnGroups = new Map<string, CohortField>();
  for (const f of form.fields) {
    if (f.type !== 'group') continue;
    const columns = f.columns ?? [];
    groups.set(f.key, { field: f, columns: new Map(columns.map((c) => [c.key, c])) });
    for (const c of columns) columnGroups.set(c.key, f);
  }
  return { form, fields: new Map(form.fields.map((f) => [f.key, f])), groups, columnGroups };
}

const indexes = new WeakMap<CohortForms, FormIndex>();

/** The forms by key and each form's fields and groups by key (built once per `forms` array). */
export function indexForms(forms: CohortForms): FormIndex {
  let index = indexes.get(forms);
  if (!index) {
    index = new Map(forms.map((form) => [form.key, indexForm(form)]));
    indexes.set(forms, index);
  }
  return index;
}

export type CohortIssue = { path: string; message: string };

/** An unknown form or field key: the same words whether the key exists elsewhere or nowhere. */
export const formMissing = (key: string) => `表单「${key}」不存在`;
export const fieldMissing = (key: string) => `字段「${key}」不存在`;
const columnMissing = (group: CohortField, key: string) => `表格「${group.label}」没有字段「${key}」`;
const columnOutside = (column: CohortField, group: CohortField) =>
  `「${column.label}」是表格「${group.label}」的列，须在“同一行”条件中检索`;

/** The issues of a (schema-valid) cohort definition against the project's forms; none when it may run. */
export function checkCohort(def: CohortDefinition, forms: CohortForms): CohortIssue[] {
  const index = indexForms(forms);
  const issues: CohortIssue[] = [];
  const report = (path: string, message: string): void => {
    issues.push({ path, message });
  };

  /** The field `key` of `form` outside a row group of a group, or what is wrong (a column is refused there). */
  function formField(form: IndexedForm, key: string): string | CohortField {
    const field = form.fields.get(key);
    if (field) return field;
    const group = form.columnGroups.get(key);
    const column = group?.columns?.find((c) => c.key === key);
    return group && column ? columnOutside(column, group) : fieldMissing(key);
  }

  /**
   * One condition on a field of form `formKey`; `group`: the condition is inside a row group of that group field, so
   * its field is one of the group's columns (and `withinDaysOf` may name another column of it: the same row).
   */
  function checkCondition(formKey: string, c: CohortRowCondition, path: string, group?: IndexedGroup): void {
    const form = index.get(formKey);
    if (!form) return;
    const found = group
      ? (group.columns.get(c.fieldKey) ?? columnMissing(group.field, c.fieldKey))
      : formField(form, c.fieldKey);
    if (typeof found === 'string') return report(`${path}.fieldKey`, found);
    const field = found;
    const name = `「${field.label}」`;
    const kind = fieldSearchKind(field.type);
    if (kind === null)
      return report(`${path}.fieldKey`, `${name}是${FIELD_TYPE_LABELS[field.type]}字段，不能作为检索条件`);
    const operand = fieldOperand(kind, c.op);
    if (operand === null) return report(`${path}.op`, `${name}不能使用「${COHORT_OP_LABELS[c.op]}」条件`);
    if (operand === 'otherDate') {
      const other = c.other;
      if (!other) return report(`${path}.other`, `${name}须选择另一个日期字段`);
      const otherForm = index.get(other.formKey);
      if (!otherForm) return report(`${path}.other.formKey`, formMissing(other.formKey));
      const sameRow = group && other.formKey === formKey ? group.columns.get(other.fieldKey) : undefined;
      const otherField = sameRow ?? formField(otherForm, other.fieldKey);
      if (typeof otherField === 'string') return report(`${path}.other.fieldKey`, otherField);
      if (fieldSearchKind(otherField.type) !== 'date')
        return report(`${path}.other.fieldKey`, `「${otherField.label}」不是日期字段，不能比较相差天数`);
      if (other.formKey === formKey && other.fieldKey === c.fieldKey)
        return report(`${path}.other.fieldKey`, `${name}不能与自身比较相差天数`);
      if (c.days === undefined) return report(`${path}.days`, `${name}须填写相差的天数`);
      return;
    }
    const problem = operandProblem(operand, c.value, name);
    if (problem) return report(`${path}.value`, problem);
    if ((operand === 'code' || operand === 'codes') && field.options) {
      const codes = typeof c.value === 'string' ? [c.value] : Array.isArray(c.value) ? c.value.map(String) : [];
      const unknown = [...new Set(codes.filter((code) => !field.options?.includes(code)))];
      if (unknown.length > 0) report(`${path}.value`, `${name}没有编码为 ${unknown.join('、')} 的选项`);
    }
  }

  function checkGroup(group: CohortGroup, path: string): void {
    group.items.forEach((item, i) => {
      const at = `${path}.items.${i}`;
      switch (item.kind) {
        case 'group':
          return checkGroup(item, at);
        case 'field':
          if (!index.has(item.formKey)) return report(`${at}.formKey`, formMissing(item.formKey));
          return checkCondition(item.formKey, item, at);
        case 'rows': {
          const form = index.get(item.formKey);
          if (!form) return report(`${at}.formKey`, formMissing(item.formKey));
          if (item.groupKey !== undefined) {
            const group = form.groups.get(item.groupKey);
            if (!group) {
              const field = form.fields.get(item.groupKey);
              return report(
                `${at}.groupKey`,
                field ? `「${field.label}」不是表格字段，不能设置“同一行”的条件` : fieldMissing(item.groupKey),
              );
            }
            item.conditions.forEach((c, j) => checkCondition(item.formKey, c, `${at}.conditions.${j}`, group));
            return;
          }
          if (!form.form.repeating)
            report(`${at}.formKey`, `「${form.form.title}」不是可重复表单，不能设置“同一条记录”的条件`);
          item.conditions.forEach((c, j) => checkCondition(item.formKey, c, `${at}.conditions.${j}`));
          return;
        }
        // patient and follow-up conditions need no form: the schema checked them whole
        case 'patient':
        case 'followup':
          return;
      }
    });
  }

  checkGroup(def.root, 'root');
  return issues;
}
