import type { Definition, FormDefinition } from '../forms/definition';
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

/** A field as the cohort sees it: its key, label, type, and the option codes of a radio, checkbox or yes/no. */
export type CohortField = { key: string; label: string; type: FieldType; options?: readonly string[] };
/** A form of the published definition; group columns are not listed (a group is not searchable). */
export type CohortForm = { key: string; title: string; repeating: boolean; fields: readonly CohortField[] };
export type CohortForms = readonly CohortForm[];

/** A form definition as the cohort sees it. */
export function cohortFormOf(form: FormDefinition): CohortForm {
  return {
    key: form.key,
    title: form.title,
    repeating: form.repeating === true,
    fields: form.fields.map((f): CohortField => {
      const options =
        f.type === 'yesno'
          ? YES_NO_OPTIONS.map((o) => o.code as string)
          : f.type === 'radio' || f.type === 'checkbox'
            ? (f.options ?? []).map((o) => o.code)
            : undefined;
      return options
        ? { key: f.key, label: f.label, type: f.type, options }
        : { key: f.key, label: f.label, type: f.type };
    }),
  };
}

/** Every form of a (published) definition, as the cohort sees them. */
export function cohortForms(definition: Pick<Definition, 'categories'>): CohortForm[] {
  return definition.categories.flatMap((c) => c.forms.map(cohortFormOf));
}

export type IndexedForm = { form: CohortForm; fields: ReadonlyMap<string, CohortField> };
export type FormIndex = ReadonlyMap<string, IndexedForm>;

const indexes = new WeakMap<CohortForms, FormIndex>();

/** The forms by key and each form's fields by key (built once per `forms` array). */
export function indexForms(forms: CohortForms): FormIndex {
  let index = indexes.get(forms);
  if (!index) {
    index = new Map(forms.map((form) => [form.key, { form, fields: new Map(form.fields.map((f) => [f.key, f])) }]));
    indexes.set(forms, index);
  }
  return index;
}

export type CohortIssue = { path: string; message: string };

const formMissing = (key: string) => `表单「${key}」不存在`;
const fieldMissing = (key: string) => `字段「${key}」不存在`;

/** The issues of a (schema-valid) cohort definition against the project's forms; none when it may run. */
export function checkCohort(def: CohortDefinition, forms: CohortForms): CohortIssue[] {
  const index = indexForms(forms);
  const issues: CohortIssue[] = [];
  const report = (path: string, message: string): void => {
    issues.push({ path, message });
  };

  function checkCondition(formKey: string, c: CohortRowCondition, path: string): void {
    const form = index.get(formKey);
    if (!form) return;
    const field = form.fields.get(c.fieldKey);
    if (!field) return report(`${path}.fieldKey`, fieldMissing(c.fieldKey));
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
      const otherField = otherForm.fields.get(other.fieldKey);
      if (!otherField) return report(`${path}.other.fieldKey`, fieldMissing(other.fieldKey));
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
