import { idNumberFacts } from '@registry/shared/contracts/patient';
import type { RecordStatus } from '@registry/shared/contracts/form-record';
import type { ImportCellError } from '@registry/shared/contracts/patient-import';
import { BOUND_GENDER_CODES } from '@registry/shared/forms/binding';
import { evaluateForm, validateRecord } from '@registry/shared/forms/record';
import type { ProjectScope } from '../../domain/scope/project-scope';
import { blindIndex, type PhiKeys } from '../../lib/phi-crypto';
import { identityIssues, type EditableField, type PatientRow, type PatientService } from '../patient/patient.service';
import { diffLeaves } from '../patient-record/record-data';
import { withPatientValues, type BoundValues } from '../patient-record/patient-binding';
import { reportText } from './import-cells';
import type { DemographicKey } from './import-columns';
import { DEMOGRAPHIC_HEADERS, M, type FormPlan, type ParsedRow, type RowPlan, type Sources } from './import-plan';
import type { firstRecords, projectCenters } from './patient-import.repository';

/**
 * Step 3 of the analysis, one row: the patient it fills (by 患者编号 or 住院号, else a new one), the patient's checks
 * (identity, center, duplicates in the project and in the file), then its forms checked by the engine as drafts.
 */

type Center = Awaited<ReturnType<typeof projectCenters>>[number];

/** What every row is checked against, and what the rows before it claimed and counted. */
export type RowContext = {
  scope: ProjectScope;
  keys: PhiKeys;
  patients: PatientService;
  canEdit: boolean;
  today: string;
  fileName: string;
  sources: Sources;
  /** The codes of each dictionary the columns use. */
  dictCodes: Map<string, Set<string>>;
  /** The visible patients the file names, by patient number and by hospital number. */
  byNo: Map<string, PatientRow>;
  byHospitalNo: Map<string, PatientRow>;
  /** The project's patients sharing a hospital number or an identity number with the file. */
  duplicates: Awaited<ReturnType<PatientService['findDuplicates']>>;
  centers: Center[];
  /** The first record of each of their forms, by `patientId \u0000 formKey`. */
  recordOf: Map<string, Awaited<ReturnType<typeof firstRecords>>[number]>;
  errors: ImportCellError[];
  /** The first row of each patient, hospital number and identity number's blind index. */
  claimedPatient: Map<string, number>;
  claimedHospitalNo: Map<string, number>;
  claimedIdNumber: Map<string, number>;
  counts: { newPatients: number; existingPatients: number; valueCount: number };
};

type RowErrors = {
  at(key: DemographicKey | EditableField, message: string): void;
  atField(fieldKey: string, message: string, formTitle: string): void;
  /** The center of a code, when it exists, is open and in the session's scope (else an error, undefined). */
  centerByCode(code: string): Center | undefined;
};

function rowErrors(row: ParsedRow, ctx: RowContext): RowErrors {
  const { errors, centers, scope } = ctx;
  /** An error at a cell by its row-2 key (`patient.name`, `weight`); without the cell, the header given. */
  const atCell = (sheetKey: string, field: string, message: string, header: string) => {
    const cell = row.cells.get(sheetKey);
    errors.push({
      row: row.rowNo,
      column: cell?.letter ?? '',
      header: cell?.column.header ?? header,
      field,
      value: cell ? reportText(cell.column, cell.raw) : null,
      message,
    });
  };
  const at = (key: DemographicKey | EditableField, message: string) =>
    atCell(`patient.${key}`, key, message, DEMOGRAPHIC_HEADERS.get(key) ?? key);
  const atField = (fieldKey: string, message: string, formTitle: string) =>
    atCell(fieldKey, fieldKey, message, formTitle);
  const centerByCode = (code: string) => {
    const center = centers.find((c) => c.code === code);
    if (!center || (scope.centerId !== null && center.id !== scope.centerId)) {
      at('centerCode', M.centerNotFound(code));
      return undefined;
    }
    if (center.status !== 'active') {
      at('centerCode', M.centerClosed(code, center.name));
      return undefined;
    }
    return center;
  };
  return { at, atField, centerByCode };
}

/** The patient the row fills: by its patient number, else by its hospital number; counted, claimed once. */
function existingOf(row: ParsedRow, ctx: RowContext, { at }: RowErrors): PatientRow | undefined {
  const { byNo, byHospitalNo, canEdit, claimedPatient, counts } = ctx;
  let existing: PatientRow | undefined;
  if (row.patientNo) {
    existing = byNo.get(row.patientNo);
    if (!existing) at('patientNo', M.patientNoNotFound(row.patientNo));
  } else if (row.demo.hospitalNo) existing = byHospitalNo.get(row.demo.hospitalNo);
  if (row.patientNo && !existing) {
    // reported: nothing more to check about who it is
  } else if (existing) {
    counts.existingPatients += 1;
    if (!canEdit) at(row.patientNo ? 'patientNo' : 'hospitalNo', M.editForbidden);
    const first = claimedPatient.get(existing.id);
    if (first !== undefined) at(row.patientNo ? 'patientNo' : 'hospitalNo', M.samePatient(first));
    else claimedPatient.set(existing.id, row.rowNo);
  } else counts.newPatients += 1;
  return existing;
}

type Target = {
  target: RowPlan['target'] | undefined;
  /** The hospital and identity numbers the row gives the patient (checked for duplicates). */
  changedHospitalNo: string | null;
  changedIdNumber: string | null;
};

/** What the row does to its patient: the update of an existing one, or a new one (name, center, identity checked). */
function targetOf(row: ParsedRow, existing: PatientRow | undefined, ctx: RowContext, errs: RowErrors): Target {
  const { patients, scope, centers } = ctx;
  const { at, centerByCode } = errs;
  let target: RowPlan['target'] | undefined;
  let changedHospitalNo: string | null = null;
  let changedIdNumber: string | null = null;
  if (existing) {
    let centerId: string | undefined;
    if (row.centerCode && row.centerCode !== existing.centerCode) centerId = centerByCode(row.centerCode)?.id;
    const input: Partial<Record<EditableField, string | null>> = {};
    for (const [k, v] of Object.entries(row.demo) as [EditableField, string | undefined][])
      if (v !== undefined) input[k] = v;
    if (centerId) input.centerId = centerId;
    const plan = patients.planUpdate(existing, input);
    if (plan.changed.some((k) => k === 'idNumber' || k === 'birthDate' || k === 'gender'))
      for (const issue of identityIssues(plan.next)) at(issue.path, issue.message);
    if (plan.changed.includes('hospitalNo')) changedHospitalNo = plan.next.hospitalNo;
    if (plan.changed.includes('idNumber')) changedIdNumber = plan.next.idNumber;
    target = { kind: 'existing', patient: existing, plan };
  } else if (!row.patientNo) {
    const name = row.demo.name;
    if (!name) at('name', M.nameRequired);
    let center: { id: string; code: string } | undefined;
    if (row.centerCode) center = centerByCode(row.centerCode);
    else if (scope.centerId) {
      const own = centers.find((c) => c.id === scope.centerId);
      if (own && own.status !== 'active') at('centerCode', M.centerClosed(own.code, own.name));
      else center = own;
    } else at('centerCode', M.centerRequired);
    for (const issue of identityIssues(row.demo)) at(issue.path, issue.message);
    changedHospitalNo = row.demo.hospitalNo ?? null;
    changedIdNumber = row.demo.idNumber ?? null;
    if (name && center) target = { kind: 'new', input: { ...row.demo, name }, center };
  }
  return { target, changedHospitalNo, changedIdNumber };
}

/** Duplicates of the numbers the row gives its patient, against the database and within the file. */
function checkDuplicates(
  row: ParsedRow,
  existing: PatientRow | undefined,
  t: Target,
  ctx: RowContext,
  { at }: RowErrors,
) {
  const { keys, duplicates, claimedHospitalNo, claimedIdNumber } = ctx;
  const { changedHospitalNo, changedIdNumber } = t;
  const selfId = existing?.id;
  if (changedHospitalNo) {
    const dup = duplicates.find((d) => d.hospitalNo === changedHospitalNo && d.id !== selfId);
    const first = claimedHospitalNo.get(changedHospitalNo);
    if (dup) at('hospitalNo', M.duplicateInDb('住院号', dup.patientNo));
    else if (first !== undefined) at('hospitalNo', M.duplicateInFile('住院号', first));
    if (first === undefined) claimedHospitalNo.set(changedHospitalNo, row.rowNo);
  }
  if (changedIdNumber) {
    const bi = blindIndex(keys, changedIdNumber);
    const dup = duplicates.find((d) => d.idNumberBi === bi && d.id !== selfId);
    const first = claimedIdNumber.get(bi);
    if (dup) at('idNumber', M.duplicateInDb('身份证号', dup.patientNo));
    else if (first !== undefined) at('idNumber', M.duplicateInFile('身份证号', first));
    if (first === undefined) claimedIdNumber.set(bi, row.rowNo);
  }
}

/** The patient as it will be: the fields bound to it take its values. */
function patientValuesOf(row: ParsedRow, target: RowPlan['target'] | undefined): BoundValues | undefined {
  let patientValues: BoundValues | undefined;
  if (target?.kind === 'existing') patientValues = target.plan.next;
  else if (target?.kind === 'new') {
    const facts = row.demo.idNumber ? idNumberFacts(row.demo.idNumber) : null;
    patientValues = {
      name: target.input.name,
      gender: row.demo.gender ?? facts?.gender ?? null,
      birthDate: row.demo.birthDate ?? facts?.birthDate ?? null,
      idNumber: row.demo.idNumber ?? null,
      phone: row.demo.phone ?? null,
      hospitalNo: row.demo.hospitalNo ?? null,
    };
  }
  return patientValues;
}

/** Each form's data as it will be: the stored first instance overlaid with the row's cells and the patient's values. */
function mergedForms(
  row: ParsedRow,
  existing: PatientRow | undefined,
  patientValues: BoundValues | undefined,
  ctx: RowContext,
): Map<string, Record<string, unknown>> {
  const { sources, recordOf } = ctx;
  const merged = new Map<string, Record<string, unknown>>();
  for (const column of sources.fields) {
    const formKey = column.form.key;
    if (merged.has(formKey)) continue;
    const stored = existing ? recordOf.get(`${existing.id}\u0000${formKey}`)?.data : undefined;
    const data = { ...(stored ?? {}), ...(row.values.get(formKey) ?? {}) };
    merged.set(formKey, patientValues ? withPatientValues(column.form, data, patientValues) : data);
  }
  return merged;
}

/** The row's forms, each checked by the engine as a draft (hidden values, hard issues and locked forms are errors). */
function planForms(
  row: ParsedRow,
  existing: PatientRow | undefined,
  patientValues: BoundValues | undefined,
  ctx: RowContext,
  { atField }: RowErrors,
): FormPlan[] {
  const { sources, recordOf, today, dictCodes, fileName, counts } = ctx;
  const merged = mergedForms(row, existing, patientValues, ctx);
  const formPlans: FormPlan[] = [];
  for (const [formKey, rowValues] of row.values) {
    const column = sources.fields.find((c) => c.form.key === formKey);
    if (!column) continue;
    const { form } = column;
    const firstCellKey = Object.keys(rowValues)[0] ?? '';
    const stored = existing ? recordOf.get(`${existing.id}\u0000${formKey}`) : undefined;
    if (stored?.status === 'locked') {
      atField(firstCellKey, M.locked(form.title), form.title);
      continue;
    }
    const data = merged.get(formKey) ?? {};
    const external: Record<string, unknown> = {};
    for (const [otherKey, otherData] of merged) if (otherKey !== formKey) Object.assign(external, otherData);
    const engine = {
      missingCodes: sources.missingOf.get(formKey) ?? [],
      external,
      today,
    };
    for (const path of evaluateForm(form, data, engine).clear)
      if (Object.prototype.hasOwnProperty.call(rowValues, path))
        atField(path, M.hidden(form.fields.find((f) => f.key === path)?.label ?? path), form.title);
    const verdict = validateRecord(form, data, {
      ...engine,
      mode: 'draft',
      // a bound sex field holds the patient's code (checked by the patient contract), its list has no column
      dictionaryHas: (dictCode, code) =>
        dictCodes.get(dictCode)?.has(code) === true || (dictCode === 'gender' && BOUND_GENDER_CODES.includes(code)),
    });
    for (const issue of verdict.issues) if (issue.level === 'hard') atField(issue.fieldKey, issue.message, form.title);
    const changes = diffLeaves(form, stored?.data ?? {}, verdict.data);
    counts.valueCount += changes.length;
    // a change to a verified record returns it to submitted; an unchanged one keeps its status
    const status: RecordStatus = !stored
      ? 'draft'
      : stored.status === 'verified' && changes.length > 0
        ? 'submitted'
        : stored.status;
    formPlans.push({
      form,
      versionId: column.versionId,
      existing: stored
        ? {
            id: stored.id,
            instance: stored.instance,
            status: stored.status,
            rowVersion: stored.rowVersion,
            data: stored.data,
          }
        : null,
      data: verdict.data,
      softIssues: verdict.issues.filter((i) => i.level === 'soft'),
      status,
      reason: stored && stored.status !== 'draft' ? M.reason(fileName, row.rowNo) : null,
      derivedPaths: new Set(
        changes.map((c) => c.path).filter((p) => !Object.prototype.hasOwnProperty.call(rowValues, p)),
      ),
    });
  }
  return formPlans;
}

/** One row's plan, or null when the row has errors (they are in `ctx.errors`) or fills no patient. */
export function planRow(row: ParsedRow, ctx: RowContext): RowPlan | null {
  const errorCount = ctx.errors.length;
  const errs = rowErrors(row, ctx);
  const existing = existingOf(row, ctx, errs);
  const t = targetOf(row, existing, ctx, errs);
  checkDuplicates(row, existing, t, ctx, errs);
  const patientValues = patientValuesOf(row, t.target);
  const forms = planForms(row, existing, patientValues, ctx, errs);
  if (t.target && row.demoOk && ctx.errors.length === errorCount) return { rowNo: row.rowNo, target: t.target, forms };
  return null;
}
