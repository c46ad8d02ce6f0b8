import { PATIENT_GENDERS } from '../contracts/patient-codes';
import type { AnyField, FieldDefinition, FormDefinition } from './definition';

/**
 * Fields bound to the patient record ("demographics are typed twice"): a CRF field with `binding:
 * 'patient.name'` is not a second copy of the patient's name but the name itself. The patient record is the one source
 * of truth; the record's data keeps the value in step (every write of either side writes both, in one transaction):
 * - reading a record shows the patient's current value (masked like the patient's own value without `patient.pii`);
 * - saving a changed bound value changes the patient (checked like 新增患者, audited as `patient.update`);
 * - editing the patient (编辑患者, import) rewrites the bound values of the patient's records;
 * - the patient list and the import template carry the patient's column once, never the bound CRF field as a second.
 * Only a non-repeating form's own fields (not group columns) can be bound, one field per attribute per form.
 */
export const PATIENT_BINDINGS = [
  'patient.name',
  'patient.gender',
  'patient.birthDate',
  'patient.idNumber',
  'patient.phone',
  'patient.hospitalNo',
] as const;
export type PatientBinding = (typeof PATIENT_BINDINGS)[number];
/** The patient attribute a binding names (`PatientVO`'s property). */
export type BoundAttribute = 'name' | 'gender' | 'birthDate' | 'idNumber' | 'phone' | 'hospitalNo';

export const PATIENT_BINDING_LABELS: Readonly<Record<PatientBinding, string>> = {
  'patient.name': '患者姓名',
  'patient.gender': '性别',
  'patient.birthDate': '出生日期',
  'patient.idNumber': '身份证号',
  'patient.phone': '手机号',
  'patient.hospitalNo': '住院号',
};

export const attributeOf = (binding: PatientBinding): BoundAttribute =>
  binding.slice('patient.'.length) as BoundAttribute;

/** The field types each binding takes, as the designer and the check describe them. */
export const BINDING_TYPE_HINTS: Readonly<Record<PatientBinding, string>> = {
  'patient.name': '单行文本',
  'patient.gender': '性别字典（gender）或选项编码为性别代码（0、1、2、9）的单选',
  'patient.birthDate': '日期',
  'patient.idNumber': '单行文本',
  'patient.phone': '单行文本',
  'patient.hospitalNo': '单行文本',
};

/** The option codes a sex field may use: the patient's GB/T 2261.1 codes, taken as they are. */
export const BOUND_GENDER_CODES: readonly string[] = PATIENT_GENDERS;

/** Whether a field's type fits a binding (a sex choice must use the patient's sex codes). */
export function bindingFits(field: Pick<AnyField, 'type' | 'dictCode' | 'options'>, binding: PatientBinding): boolean {
  switch (binding) {
    case 'patient.birthDate':
      return field.type === 'date';
    case 'patient.gender':
      if (field.type === 'dict') return field.dictCode === 'gender';
      return (
        field.type === 'radio' &&
        (field.options ?? []).length > 0 &&
        (field.options ?? []).every((o) => BOUND_GENDER_CODES.includes(o.code))
      );
    default:
      return field.type === 'text';
  }
}

/** The message of a binding the field's type does not fit (the designer shows it, publishing is refused with it). */
export function bindingMismatchMessage(field: { key: string; label: string }, binding: PatientBinding): string {
  return `「${field.label}」(${field.key})绑定了患者信息「${PATIENT_BINDING_LABELS[binding]}」，字段类型须为${BINDING_TYPE_HINTS[binding]}`;
}

export type BoundField = { field: FieldDefinition; attribute: BoundAttribute };

/** A form's bound fields (none for a repeating form: a patient has one name, not one per instance). */
export function boundFields(form: FormDefinition): BoundField[] {
  if (form.repeating) return [];
  const out: BoundField[] = [];
  const seen = new Set<BoundAttribute>();
  for (const field of form.fields) {
    if (!field.binding || !bindingFits(field, field.binding)) continue;
    const attribute = attributeOf(field.binding);
    if (seen.has(attribute)) continue;
    seen.add(attribute);
    out.push({ field, attribute });
  }
  return out;
}
