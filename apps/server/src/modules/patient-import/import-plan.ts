import type { RecordIssue } from '@registry/shared/contracts/form-definition';
import type { RecordStatus } from '@registry/shared/contracts/form-record';
import { patientCreateRequest } from '@registry/shared/contracts/patient';
import type { ImportReport } from '@registry/shared/contracts/patient-import';
import type { Definition, FormDefinition } from '@registry/shared/forms/definition';
import type { PatientRow, PatientUpdatePlan } from '../patient/patient.service';
import type { ExistingRecord } from '../patient-record/record-writer';
import { demographicColumns, type FieldColumn, type ImportColumn } from './import-columns';
import type { SheetCell } from './import-workbook';

/** The messages of the patient import, and what its dry run hands to the commit: a plan per row. */

export const PATIENT_IMPORT_MESSAGES = {
  noVersion: '项目尚未发布数据库版本，请先发布后再导入',
  frozen: '项目已锁定或归档，数据不能修改',
  notExcel: '请上传 Excel 文件（.xlsx）',
  hasErrors: (n: number) => `导入文件有 ${n} 处错误，未写入任何数据`,
  conflict: '导入时发现与他人同时录入的数据冲突，未写入任何数据，请重新检查后再导入',
  patientNoNotFound: (no: string) => `患者编号 ${no} 不存在`,
  editForbidden: '修改已有患者需要“修改患者”权限',
  samePatient: (row: number) => `与第 ${row} 行是同一患者，一名患者只能占一行`,
  nameRequired: '新患者须填写姓名',
  centerRequired: '请填写中心编码',
  centerNotFound: (code: string) => `中心编码 ${code} 不存在或不在您的权限范围内`,
  centerClosed: (code: string, name: string) => `中心 ${code}（${name}）已关闭`,
  duplicateInDb: (what: string, patientNo: string) => `${what}已存在：与患者 ${patientNo} 重复`,
  duplicateInFile: (what: string, row: number) => `${what}与第 ${row} 行重复`,
  locked: (title: string) => `表单「${title}」已锁定，不能导入`,
  hidden: (label: string) => `「${label}」按显示条件当前不显示，不能填写（请检查它所依赖的字段）`,
  reason: (fileName: string, row: number) => `Excel 导入：${fileName} 第 ${row} 行`,
} as const;
export const M = PATIENT_IMPORT_MESSAGES;

export const DEMOGRAPHIC_HEADERS = new Map<string, string>(demographicColumns().map((c) => [c.key, c.header]));

/** The demographics as the patient contract checks them (the center is a code here, resolved separately). */
export const demographicsSchema = patientCreateRequest.omit({ centerId: true }).partial();
export type Demographics = ReturnType<typeof demographicsSchema.parse>;

export type Sources = {
  columns: ImportColumn[];
  fields: FieldColumn[];
  versionId: string;
  versionNo: number;
  missingCodes: Definition['missingCodes'];
  /** Missing-data codes of the definition each form comes from. */
  missingOf: Map<string, string[]>;
};

export type FormPlan = {
  form: FormDefinition;
  versionId: string;
  existing: ExistingRecord | null;
  data: Record<string, unknown>;
  softIssues: RecordIssue[];
  status: RecordStatus;
  reason: string | null;
  derivedPaths: Set<string>;
};

export type RowPlan = {
  rowNo: number;
  target:
    | { kind: 'new'; input: Demographics & { name: string }; center: { id: string; code: string } }
    | { kind: 'existing'; patient: PatientRow; plan: PatientUpdatePlan };
  forms: FormPlan[];
};

/** The enabled options of each dictionary the columns use, by dictionary code. */
export type DictOptions = Map<string, { code: string; label: string }[]>;

export type Analysis = { report: ImportReport; rows: RowPlan[]; sources: Sources; fileName: string };

/** A data row's cells turned into values: the demographics as the contract checked them, the CRF values per form. */
export type ParsedRow = {
  rowNo: number;
  cells: Map<string, SheetCell>;
  demo: Demographics;
  demoOk: boolean;
  patientNo?: string;
  centerCode?: string;
  values: Map<string, Record<string, unknown>>;
};
