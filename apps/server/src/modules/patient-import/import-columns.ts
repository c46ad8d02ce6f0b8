import {
  PATIENT_GENDER_LABELS,
  PATIENT_GENDERS,
  PATIENT_STATUS_LABELS,
  PATIENT_STATUSES,
} from '@registry/shared/contracts/patient';
import {
  FIELD_TYPE_LABELS,
  YES_NO_OPTIONS,
  type Definition,
  type FieldDefinition,
  type FieldType,
  type FormDefinition,
} from '@registry/shared/forms/definition';
import { listForms } from '@registry/shared/forms/walk';

/**
 * The columns of the patient import workbook: the demographics, then one column per data field of the non-repeating,
 * non-follow-up forms of the published definition(s) (a sub-project: the parent's forms, then its own). Labels in row
 * 1, variable keys in row 2 (demographics as `patient.<key>`, which no field key can be: keys hold no dot), data from
 * row 3. Layout, calculated, file and repeating-group fields have no column (calcs are computed on import), nor have
 * fields bound to the patient record: they are the demographic columns.
 */

export const IMPORT_SHEET = '患者数据';
export const GUIDE_SHEET = '填写说明';
export const OPTIONS_SHEET = '选项';
export const HEADER_ROW = 1;
export const KEY_ROW = 2;
export const FIRST_DATA_ROW = 3;
/** Data rows a file may hold (a larger cohort is imported in several files). */
export const MAX_IMPORT_ROWS = 5000;
/** Rows of the template that carry the drop-down lists. */
export const TEMPLATE_ROWS = 1000;

export const DEMOGRAPHIC_KEYS = [
  'patientNo',
  'name',
  'gender',
  'birthDate',
  'hospitalNo',
  'idNumber',
  'phone',
  'centerCode',
  'enrolDate',
  'status',
] as const;
export type DemographicKey = (typeof DEMOGRAPHIC_KEYS)[number];

export type DemographicColumn = {
  kind: 'demographic';
  key: DemographicKey;
  /** Row 2. */
  sheetKey: string;
  header: string;
  width: number;
  format: 'text' | 'date' | 'choice';
  note: string;
};

export type FieldColumn = {
  kind: 'field';
  key: string;
  sheetKey: string;
  header: string;
  width: number;
  field: FieldDefinition;
  form: FormDefinition;
  /** The published version the form comes from (a new record is entered with it). */
  versionId: string;
  note: string;
};

export type ImportColumn = DemographicColumn | FieldColumn;

const DEMOGRAPHICS: Omit<DemographicColumn, 'kind' | 'sheetKey'>[] = [
  {
    key: 'patientNo',
    header: '患者编号',
    width: 14,
    format: 'text',
    note: '已有患者填写系统中的患者编号（如 C01-0001）以更新其数据；新患者留空，由系统编号',
  },
  { key: 'name', header: '姓名', width: 12, format: 'text', note: '新患者必填，最多50个字符' },
  {
    key: 'gender',
    header: '性别',
    width: 12,
    format: 'choice',
    note: `从下拉列表选择：${PATIENT_GENDERS.map((g) => PATIENT_GENDER_LABELS[g]).join('、')}；填写身份证号时可留空`,
  },
  {
    key: 'birthDate',
    header: '出生日期',
    width: 12,
    format: 'date',
    note: '日期，如 1980-05-12；填写身份证号时可留空',
  },
  {
    key: 'hospitalNo',
    header: '住院号',
    width: 14,
    format: 'text',
    note: '字母、数字、下划线或短横线；与已有患者相同时更新该患者的数据',
  },
  { key: 'idNumber', header: '身份证号', width: 22, format: 'text', note: '18位居民身份证号（请以文本格式填写）' },
  { key: 'phone', header: '手机号', width: 14, format: 'text', note: '11位中国大陆手机号' },
  {
    key: 'centerCode',
    header: '中心编码',
    width: 10,
    format: 'choice',
    note: '患者所属中心的编码；只属于一个中心的成员可留空',
  },
  { key: 'enrolDate', header: '入组日期', width: 12, format: 'date', note: '日期，如 2026-01-05' },
  {
    key: 'status',
    header: '状态',
    width: 10,
    format: 'choice',
    note: `从下拉列表选择：${PATIENT_STATUSES.map((s) => PATIENT_STATUS_LABELS[s]).join('、')}；新患者留空为“筛选中”`,
  },
];

export const demographicColumns = (): DemographicColumn[] =>
  DEMOGRAPHICS.map((c) => ({ ...c, kind: 'demographic', sheetKey: `patient.${c.key}` }));

/** Field types without a column: layout, computed, uploads and tables. */
const NO_COLUMN: readonly FieldType[] = ['section', 'description', 'calc', 'file', 'group'];

function fieldNote(form: FormDefinition, field: FieldDefinition, missingCodes: readonly string[]): string {
  const lines = [`表单：${form.title}`, `类型：${FIELD_TYPE_LABELS[field.type]}`];
  if (field.unit) lines.push(`单位：${field.unit}`);
  if (field.min !== undefined && field.max !== undefined) lines.push(`范围：${field.min} ~ ${field.max}`);
  else if (field.min !== undefined) lines.push(`最小值：${field.min}`);
  else if (field.max !== undefined) lines.push(`最大值：${field.max}`);
  if (field.precision !== undefined && field.type === 'decimal') lines.push(`小数位数：最多 ${field.precision} 位`);
  if (field.type === 'date' || field.type === 'datetime' || field.type === 'partialDate')
    lines.push(
      field.type === 'date'
        ? '格式：YYYY-MM-DD'
        : field.type === 'datetime'
          ? '格式：YYYY-MM-DD HH:mm'
          : '格式：YYYY、YYYY-MM 或 YYYY-MM-DD',
    );
  if (field.type === 'radio' || field.type === 'checkbox')
    lines.push(`选项：${(field.options ?? []).map((o) => `${o.code}=${o.label}`).join('；')}`);
  if (field.type === 'checkbox') lines.push('多个选项用逗号分隔');
  if (field.type === 'yesno') lines.push(`选项：${YES_NO_OPTIONS.map((o) => o.label).join('、')}`);
  if (field.type === 'dict') lines.push(`字典：${field.dictCode ?? ''}（填写选项名称或编码）`);
  if (field.required) lines.push('提交表单时必填');
  const accepted = (field.missingCodes ?? []).filter((c) => missingCodes.includes(c));
  if (accepted.length > 0) lines.push(`可填缺失值编码：${accepted.join('、')}`);
  if (field.help) lines.push(field.help);
  return lines.join('\n');
}

/** The importable forms and their data fields, each with the version that publishes it. */
export function fieldColumns(sources: readonly { definition: Definition; versionId: string }[]): FieldColumn[] {
  const out: FieldColumn[] = [];
  const seen = new Set<string>();
  for (const { definition, versionId } of sources) {
    const missing = definition.missingCodes.map((m) => m.code);
    for (const { form } of listForms(definition)) {
      if (form.repeating || form.followUp) continue;
      for (const field of form.fields) {
        // A field bound to the patient record has no column of its own: the demographic column (姓名, 性别, …) fills
        // the patient, and the record's bound field takes the patient's value.
        if (NO_COLUMN.includes(field.type) || seen.has(field.key) || field.binding !== undefined) continue;
        seen.add(field.key);
        out.push({
          kind: 'field',
          key: field.key,
          sheetKey: field.key,
          header: field.unit ? `${field.label}（${field.unit}）` : field.label,
          width: Math.min(30, Math.max(10, [...field.label].length * 2 + 2)),
          field,
          form,
          versionId,
          note: fieldNote(form, field, missing),
        });
      }
    }
  }
  return out;
}

/** A 1-based column number as Excel's letters (1 → A, 27 → AA). */
export function columnLetter(n: number): string {
  let s = '';
  let x = n;
  while (x > 0) {
    const r = (x - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    x = Math.floor((x - 1) / 26);
  }
  return s;
}
