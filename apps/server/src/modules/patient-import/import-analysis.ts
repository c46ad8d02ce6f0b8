import type { ImportCellError } from '@registry/shared/contracts/patient-import';
import { shanghaiDate } from '@registry/shared/followup/schedule';
import { PERMISSIONS } from '@registry/shared/permissions';
import type { Db } from '../../db/client';
import { projectInfo } from '../../domain/crf/crf-definition.repository';
import type { ProjectScope } from '../../domain/scope/project-scope';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { blindIndex, type PhiKeys } from '../../lib/phi-crypto';
import { EXCEL_CONTENT_TYPE } from '../database-io/excel';
import { checkFileType } from '../file/file-type-check';
import type { PatientService } from '../patient/patient.service';
import { parseRows } from './import-parse';
import { M, type Analysis, type ParsedRow, type RowPlan, type Sources } from './import-plan';
import { planRow, type RowContext } from './import-row-plan';
import { dictOptionsOf, sourcesOf } from './import-sources';
import { readImportSheet } from './import-workbook';
import { firstRecords, projectCenters } from './patient-import.repository';

/**
 * The dry run of a patient import, the check the commit repeats: the file and the project checked, (1) the cells read
 * into values (import-parse.ts), (2) the patients and records the file names looked up, (3) each row planned and
 * checked (import-row-plan.ts); the report, and the plans of the rows without errors.
 */

export type AnalysisDeps = { db: Db; clock: Clock; keys: PhiKeys; patients: PatientService };

/** The base name of an upload, without control characters (shown, never used as a path). */
function cleanName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (cleaned || 'import.xlsx').slice(0, 200);
}

/**
 * Step 2, who the rows are: the database's patients by number and hospital number, duplicates project-wide, the
 * first records of their forms, the project's centers.
 */
async function lookUp(
  deps: AnalysisDeps,
  scope: ProjectScope,
  sources: Sources,
  parsed: ParsedRow[],
): Promise<Pick<RowContext, 'byNo' | 'byHospitalNo' | 'duplicates' | 'centers' | 'recordOf'>> {
  const { db, keys, patients } = deps;
  const visible = await patients.findVisible(db, scope, {
    patientNos: [...new Set(parsed.flatMap((p) => (p.patientNo ? [p.patientNo] : [])))],
    hospitalNos: [...new Set(parsed.flatMap((p) => (p.demo.hospitalNo ? [p.demo.hospitalNo] : [])))],
  });
  const byNo = new Map(visible.map((p) => [p.patientNo, p]));
  const byHospitalNo = new Map(visible.flatMap((p) => (p.hospitalNo ? [[p.hospitalNo, p] as const] : [])));
  const biOf = new Map(
    parsed.flatMap((p) => (p.demo.idNumber ? [[p.rowNo, blindIndex(keys, p.demo.idNumber)] as const] : [])),
  );
  const duplicates = await patients.findDuplicates(db, scope.rootProjectId, {
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
  return { byNo, byHospitalNo, duplicates, centers, recordOf };
}

export async function analyseImport(
  deps: AnalysisDeps,
  scope: ProjectScope,
  upload: { fileName: string; data: Buffer },
): Promise<Analysis> {
  const { db, clock, keys, patients } = deps;
  const fileName = cleanName(upload.fileName);
  const type = await checkFileType(upload.data, fileName, 'attachment').catch(() => null);
  if (type !== EXCEL_CONTENT_TYPE) throw new AppError(400, M.notExcel);
  const info = await projectInfo(db, scope);
  if (info.status === 'locked' || info.status === 'archived') throw new AppError(409, M.frozen);
  const sources = await sourcesOf(db, scope);
  const dictOptions = await dictOptionsOf(db, scope, sources);
  const dictCodes = new Map([...dictOptions].map(([dict, options]) => [dict, new Set(options.map((o) => o.code))]));
  const sheet = await readImportSheet(upload.data, sources.columns);
  const errors: ImportCellError[] = [...sheet.errors];
  const canEdit = scope.permissions.includes(PERMISSIONS.patientEdit);
  const today = shanghaiDate(clock.now());

  const parsed = parseRows(sheet.rows, sources, dictOptions, errors);
  const ctx: RowContext = {
    scope,
    keys,
    patients,
    canEdit,
    today,
    fileName,
    sources,
    dictCodes,
    ...(await lookUp(deps, scope, sources, parsed)),
    errors,
    claimedPatient: new Map(),
    claimedHospitalNo: new Map(),
    claimedIdNumber: new Map(),
    counts: { newPatients: 0, existingPatients: 0, valueCount: 0 },
  };
  const rowsOut: RowPlan[] = [];
  for (const row of parsed) {
    const plan = planRow(row, ctx);
    if (plan) rowsOut.push(plan);
  }
  const { newPatients, existingPatients, valueCount } = ctx.counts;

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
