import type { RecordIssue } from '@registry/shared/contracts/form-definition';
import type { RecordStatus } from '@registry/shared/contracts/form-record';
import { idNumberFacts, patientCreateRequest } from '@registry/shared/contracts/patient';
import type { ImportCellError, ImportCommitResponse, ImportReport } from '@registry/shared/contracts/patient-import';
import type { Definition, FormDefinition } from '@registry/shared/forms/definition';
import { evaluateForm, validateRecord } from '@registry/shared/forms/record';
import { PERMISSIONS } from '@registry/shared/permissions';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { blindIndex, type PhiKeys } from '../../lib/phi-crypto';
import { audit, type AuditContext } from '../../plugins/audit';
import type { AuthContext } from '../auth/session.service';
import { latestVersion, projectInfo } from '../../domain/crf/crf-definition.repository';
import { shanghaiDate } from '@registry/shared/followup/schedule';
import { EXCEL_CONTENT_TYPE } from '../database-io/excel';
import { checkFileType } from '../file/file-type-check';
import type { FileService } from '../file/file.service';
import { diffLeaves } from '../patient-record/record-data';
import { writeRecord, type ExistingRecord } from '../patient-record/record-writer';
import { withPatientValues, type BoundValues } from '../patient-record/patient-binding';
import { BOUND_GENDER_CODES } from '@registry/shared/forms/binding';
import type { PatientFollowupSync } from '../../domain/patient-change/followup-sync';
import {
  identityIssues,
  type EditableField,
  type PatientService,
  type PatientUpdatePlan,
  findProjectDuplicates,
  findVisiblePatients,
  type PatientRow,
} from '../patient/patient.service';
import { forgetPatientListTotals } from '../patient/patient.service';
import { requireProjectScope, type ProjectScope } from '../../domain/scope/project-scope';
import {
  demographicColumns,
  fieldColumns,
  type DemographicKey,
  type FieldColumn,
  type ImportColumn,
} from './import-columns';
import { parseDemographicCell, parseFieldCell, reportText } from './import-cells';
import { buildTemplate, readImportSheet, type SheetCell } from './import-workbook';
import { dictionaryOptions, firstRecords, insertImportBatch, projectCenters } from './patient-import.repository';

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
const M = PATIENT_IMPORT_MESSAGES;

const DEMOGRAPHIC_HEADERS = new Map<string, string>(demographicColumns().map((c) => [c.key, c.header]));

/** The demographics as the patient contract checks them (the center is a code here, resolved separately). */
const demographicsSchema = patientCreateRequest.omit({ centerId: true }).partial();
type Demographics = ReturnType<typeof demographicsSchema.parse>;

type Sources = {
  columns: ImportColumn[];
  fields: FieldColumn[];
  versionId: string;
  versionNo: number;
  missingCodes: Definition['missingCodes'];
  /** Missing-data codes of the definition each form comes from. */
  missingOf: Map<string, string[]>;
};

type FormPlan = {
  form: FormDefinition;
  versionId: string;
  existing: ExistingRecord | null;
  data: Record<string, unknown>;
  softIssues: RecordIssue[];
  status: RecordStatus;
  reason: string | null;
  derivedPaths: Set<string>;
};

type RowPlan = {
  rowNo: number;
  target:
    | { kind: 'new'; input: Demographics & { name: string }; center: { id: string; code: string } }
    | { kind: 'existing'; patient: PatientRow; plan: PatientUpdatePlan };
  forms: FormPlan[];
};

type Analysis = { report: ImportReport; rows: RowPlan[]; sources: Sources; fileName: string };

/** The base name of an upload, without control characters (shown, never used as a path). */
function cleanName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (cleaned || 'import.xlsx').slice(0, 200);
}

const safeName = (name: string) => name.replace(/[\\/:*?"<>|\s]+/g, '_').slice(0, 80);

const issuePath = (e: ImportCellError) =>
  [`第${e.row}行`, e.column ? `${e.column}列` : '', e.header].filter((p) => p !== '').join(' ');

export type PatientImportService = ReturnType<typeof createPatientImportService>;

/**
 * Patients and their CRF data from Excel: the template of the current published version, a dry run that checks
 * every cell and writes nothing, and an all-or-nothing commit (the workbook kept through the file storage, an
 * `import_batches` row, patients created and updated by the patient service's own writes, each form written by the
 * record writer with source `import` and `{ batchId, fileName, row }`, one `patient.import` audit event).
 */
export function createPatientImportService(deps: {
  db: Db;
  clock: Clock;
  keys: PhiKeys;
  patients: PatientService;
  files: FileService;
  /** The follow-up of each imported patient, in the import's transaction (the follow-up module's, from buildApp). */
  followup: PatientFollowupSync;
}) {
  const { db, clock, keys, patients, files, followup } = deps;

  /** The published definitions the import works on: a sub-project's parent's forms, then its own. */
  async function sourcesOf(scope: ProjectScope): Promise<Sources> {
    const own = await latestVersion(db, { tenantId: scope.tenantId, projectId: scope.projectId });
    const parent =
      scope.rootProjectId !== scope.projectId
        ? await latestVersion(db, { tenantId: scope.tenantId, projectId: scope.rootProjectId })
        : undefined;
    const primary = own ?? parent;
    if (!primary) throw new AppError(409, M.noVersion);
    const versions = [parent, own].flatMap((v) => (v ? [v] : []));
    const fields = fieldColumns(versions.map((v) => ({ definition: v.definition, versionId: v.id })));
    const missingOf = new Map<string, string[]>();
    for (const v of versions)
      for (const category of v.definition.categories)
        for (const form of category.forms)
          missingOf.set(
            form.key,
            v.definition.missingCodes.map((m) => m.code),
          );
    return {
      columns: [...demographicColumns(), ...fields],
      fields,
      versionId: primary.id,
      versionNo: primary.versionNo,
      missingCodes: primary.definition.missingCodes,
      missingOf,
    };
  }

  async function dictOptionsOf(scope: ProjectScope, sources: Sources) {
    const codes = [
      ...new Set(
        sources.fields.flatMap((c) => (c.field.type === 'dict' && c.field.dictCode ? [c.field.dictCode] : [])),
      ),
    ];
    return dictionaryOptions(db, scope.tenantId, codes);
  }

  async function analyse(scope: ProjectScope, upload: { fileName: string; data: Buffer }): Promise<Analysis> {
    const fileName = cleanName(upload.fileName);
    const type = await checkFileType(upload.data, fileName, 'attachment').catch(() => null);
    if (type !== EXCEL_CONTENT_TYPE) throw new AppError(400, M.notExcel);
    const info = await projectInfo(db, scope);
    if (info.status === 'locked' || info.status === 'archived') throw new AppError(409, M.frozen);
    const sources = await sourcesOf(scope);
    const dictOptions = await dictOptionsOf(scope, sources);
    const dictCodes = new Map([...dictOptions].map(([dict, options]) => [dict, new Set(options.map((o) => o.code))]));
    const sheet = await readImportSheet(upload.data, sources.columns);
    const errors: ImportCellError[] = [...sheet.errors];
    const canEdit = scope.permissions.includes(PERMISSIONS.patientEdit);
    const today = shanghaiDate(clock.now());

    // 1. Cells → values: demographics checked by the patient contract, CRF cells turned into stored values.
    type Parsed = {
      rowNo: number;
      cells: Map<string, SheetCell>;
      demo: Demographics;
      demoOk: boolean;
      patientNo?: string;
      centerCode?: string;
      values: Map<string, Record<string, unknown>>;
    };
    const parsed: Parsed[] = [];
    for (const row of sheet.rows) {
      const cells = new Map<string, SheetCell>();
      const rawDemo: Partial<Record<DemographicKey, unknown>> = {};
      const values = new Map<string, Record<string, unknown>>();
      let demoOk = true;
      const fail = (cell: SheetCell, field: string, message: string) =>
        errors.push({
          row: row.rowNo,
          column: cell.letter,
          header: cell.column.header,
          field,
          value: reportText(cell.column, cell.raw),
          message,
        });
      for (const cell of row.cells) {
        const { column } = cell;
        cells.set(column.sheetKey, cell);
        if (column.kind === 'demographic') {
          const result = parseDemographicCell(column.key, cell.raw);
          if (result.ok) rawDemo[column.key] = result.value;
          else {
            demoOk = false;
            fail(cell, column.key, result.message);
          }
          continue;
        }
        const accepted = new Set(sources.missingOf.get(column.form.key) ?? []);
        const result = parseFieldCell(
          column.field,
          cell.raw,
          accepted,
          dictOptions.get(column.field.dictCode ?? '') ?? [],
        );
        if (!result.ok) {
          fail(cell, column.key, result.message);
          continue;
        }
        const formValues = values.get(column.form.key) ?? {};
        formValues[column.key] = result.value;
        values.set(column.form.key, formValues);
      }
      const { patientNo, centerCode, ...contractInput } = rawDemo;
      const checked = demographicsSchema.safeParse(contractInput);
      let demo: Demographics = {};
      if (checked.success) demo = checked.data;
      else {
        demoOk = false;
        for (const issue of checked.error.issues) {
          const key = String(issue.path[0] ?? '');
          const cell = cells.get(`patient.${key}`);
          if (cell) fail(cell, key, issue.message);
        }
      }
      parsed.push({
        rowNo: row.rowNo,
        cells,
        demo,
        demoOk,
        ...(typeof patientNo === 'string' && patientNo !== '' ? { patientNo } : {}),
        ...(typeof centerCode === 'string' && centerCode !== '' ? { centerCode } : {}),
        values,
      });
    }

    // 2. Who each row is: the database's patients by number and hospital number, duplicates project-wide.
    const visible = await findVisiblePatients(db, scope, {
      patientNos: [...new Set(parsed.flatMap((p) => (p.patientNo ? [p.patientNo] : [])))],
      hospitalNos: [...new Set(parsed.flatMap((p) => (p.demo.hospitalNo ? [p.demo.hospitalNo] : [])))],
    });
    const byNo = new Map(visible.map((p) => [p.patientNo, p]));
    const byHospitalNo = new Map(visible.flatMap((p) => (p.hospitalNo ? [[p.hospitalNo, p] as const] : [])));
    const biOf = new Map(
      parsed.flatMap((p) => (p.demo.idNumber ? [[p.rowNo, blindIndex(keys, p.demo.idNumber)] as const] : [])),
    );
    const duplicates = await findProjectDuplicates(db, scope.rootProjectId, {
      hospitalNos: [...new Set(parsed.flatMap((p) => (p.demo.hospitalNo ? [p.demo.hospitalNo] : [])))],
      idNumberBis: [...new Set(biOf.values())],
    });
    const centers = await projectCenters(db, scope);
    const records = await firstRecords(
      db,
      scope.tenantId,
      visible.map((p) => p.id),
      [...new Set(sources.fields.map((c) => c.form.key))],
    );
    const recordOf = new Map(records.map((r) => [`${r.patientId}\u0000${r.formKey}`, r]));

    const rowsOut: RowPlan[] = [];
    const claimedPatient = new Map<string, number>();
    const claimedHospitalNo = new Map<string, number>();
    const claimedIdNumber = new Map<string, number>();
    let newPatients = 0;
    let existingPatients = 0;
    let valueCount = 0;

    for (const row of parsed) {
      const errorCount = errors.length;
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

      // the patient the row fills
      let existing: PatientRow | undefined;
      if (row.patientNo) {
        existing = byNo.get(row.patientNo);
        if (!existing) at('patientNo', M.patientNoNotFound(row.patientNo));
      } else if (row.demo.hospitalNo) existing = byHospitalNo.get(row.demo.hospitalNo);
      if (row.patientNo && !existing) {
        // reported: nothing more to check about who it is
      } else if (existing) {
        existingPatients += 1;
        if (!canEdit) at(row.patientNo ? 'patientNo' : 'hospitalNo', M.editForbidden);
        const first = claimedPatient.get(existing.id);
        if (first !== undefined) at(row.patientNo ? 'patientNo' : 'hospitalNo', M.samePatient(first));
        else claimedPatient.set(existing.id, row.rowNo);
      } else newPatients += 1;

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

      // duplicates against the database and within the file
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

      // The patient as it will be: the fields bound to it take its values (issue 12).
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

      // the forms: the stored first instance overlaid with the row's cells, checked by the engine as a draft
      const merged = new Map<string, Record<string, unknown>>();
      for (const column of sources.fields) {
        const formKey = column.form.key;
        if (merged.has(formKey)) continue;
        const stored = existing ? recordOf.get(`${existing.id}\u0000${formKey}`)?.data : undefined;
        const data = { ...(stored ?? {}), ...(row.values.get(formKey) ?? {}) };
        merged.set(formKey, patientValues ? withPatientValues(column.form, data, patientValues) : data);
      }
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
        const ctx = {
          missingCodes: sources.missingOf.get(formKey) ?? [],
          external,
          today,
        };
        for (const path of evaluateForm(form, data, ctx).clear)
          if (Object.prototype.hasOwnProperty.call(rowValues, path))
            atField(path, M.hidden(form.fields.find((f) => f.key === path)?.label ?? path), form.title);
        const verdict = validateRecord(form, data, {
          ...ctx,
          mode: 'draft',
          // a bound sex field holds the patient's code (checked by the patient contract), its list has no column
          dictionaryHas: (dictCode, code) =>
            dictCodes.get(dictCode)?.has(code) === true || (dictCode === 'gender' && BOUND_GENDER_CODES.includes(code)),
        });
        for (const issue of verdict.issues)
          if (issue.level === 'hard') atField(issue.fieldKey, issue.message, form.title);
        const changes = diffLeaves(form, stored?.data ?? {}, verdict.data);
        valueCount += changes.length;
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
      if (target && row.demoOk && errors.length === errorCount)
        rowsOut.push({ rowNo: row.rowNo, target, forms: formPlans });
    }

    errors.sort((a, b) => a.row - b.row || a.column.length - b.column.length || a.column.localeCompare(b.column));
    return {
      report: {
        fileName,
        versionNo: sources.versionNo,
        rowCount: parsed.length,
        newPatients,
        existingPatients,
        valueCount,
        errors,
        ok: errors.length === 0 && parsed.length > 0,
      },
      rows: rowsOut,
      sources,
      fileName,
    };
  }

  return {
    async template(auth: AuthContext): Promise<{ fileName: string; contentType: string; body: Buffer }> {
      const scope = await requireProjectScope(db, auth);
      const sources = await sourcesOf(scope);
      const info = await projectInfo(db, scope);
      const centers = (await projectCenters(db, scope)).filter(
        (c) => c.status === 'active' && (scope.centerId === null || c.id === scope.centerId),
      );
      const body = await buildTemplate(
        sources.columns,
        { centers, dictOptions: await dictOptionsOf(scope, sources) },
        { projectName: info.name, versionNo: sources.versionNo, missingCodes: sources.missingCodes },
      );
      return {
        fileName: `患者导入模板-${safeName(info.name)}-v${sources.versionNo}.xlsx`,
        contentType: EXCEL_CONTENT_TYPE,
        body,
      };
    },

    /** Checks every cell and writes nothing (not even the file). */
    async dryRun(auth: AuthContext, upload: { fileName: string; data: Buffer }): Promise<ImportReport> {
      const scope = await requireProjectScope(db, auth);
      return (await analyse(scope, upload)).report;
    },

    /** The same checks, then everything in one transaction, or nothing (400 with the report's errors as issues). */
    async commit(
      auth: AuthContext,
      upload: { fileName: string; data: Buffer },
      ctx: AuditContext,
    ): Promise<ImportCommitResponse> {
      const scope = await requireProjectScope(db, auth);
      const { report, rows, sources, fileName } = await analyse(scope, upload);
      if (report.errors.length > 0)
        throw new AppError(
          400,
          M.hasErrors(report.errors.length),
          report.errors.map((e) => ({ path: issuePath(e), message: e.message })),
        );
      if (rows.length === 0) throw new AppError(400, '文件中没有要导入的数据');
      const createdPatients = rows.filter((r) => r.target.kind === 'new').length;
      const updatedPatients = rows.length - createdPatients;
      try {
        const committed = await files.storeWithin(auth, upload, 'attachment', ctx, async (tx, file) => {
          const now = clock.now();
          const batch = await insertImportBatch(tx, {
            tenantId: scope.tenantId,
            projectId: scope.projectId,
            fileId: file.id,
            fileName,
            versionId: sources.versionId,
            rowCount: rows.length,
            createdPatients,
            updatedPatients,
            createdBy: scope.userId,
            createdAt: now,
          });
          let valueCount = 0;
          for (const row of rows) {
            let patientId: string;
            let recordProjectId: string;
            if (row.target.kind === 'new') {
              patientId = (await patients.insertInTransaction(tx, scope, row.target.center, row.target.input, ctx, now))
                .id;
              recordProjectId = scope.projectId;
            } else {
              patientId = row.target.patient.id;
              recordProjectId = row.target.patient.subProjectId ?? scope.rootProjectId;
            }
            for (const f of row.forms) {
              const result = await writeRecord(tx, ctx, {
                tenantId: scope.tenantId,
                projectId: recordProjectId,
                patientId,
                form: f.form,
                versionId: f.versionId,
                existing: f.existing,
                instance: 1,
                data: f.data,
                softIssues: f.softIssues,
                status: f.status,
                source: { type: 'import', ref: { batchId: batch.id, fileName, row: row.rowNo } },
                reason: f.reason,
                derivedPaths: f.derivedPaths,
                actorId: scope.userId,
                at: now,
              });
              valueCount += result.changes.length;
            }
            // After the row's records, which already hold the patient's new values in their bound fields: the
            // update brings the patient's other records in step (their rows are not the ones written above).
            if (row.target.kind === 'existing' && row.target.plan.changed.length > 0)
              await patients.updateInTransaction(tx, scope, row.target.plan, row.target.patient.rowVersion, ctx, now);
            await followup.syncPatient(tx, ctx, patientId, now); // follow-up plans by rule, anchors, tasks
          }
          await audit(
            tx,
            ctx,
            {
              action: 'patient.import',
              entityType: 'import_batch',
              entityId: batch.id,
              newValue: {
                projectId: scope.projectId,
                fileId: file.id,
                fileName,
                versionId: sources.versionId,
                versionNo: sources.versionNo,
                rowCount: rows.length,
                createdPatients,
                updatedPatients,
                valueCount,
              },
            },
            now,
          );
          return { batchId: batch.id, rowCount: rows.length, createdPatients, updatedPatients, valueCount };
        });
        forgetPatientListTotals(); // the list's remembered totals count the imported patients from now on
        return committed;
      } catch (err) {
        const code = (err as { code?: string }).code ?? (err as { cause?: { code?: string } }).cause?.code;
        if (code === '23505') throw new AppError(409, M.conflict);
        throw err;
      }
    },
  };
}
