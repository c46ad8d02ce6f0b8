import type { ImportCellError, ImportCommitResponse, ImportReport } from '@registry/shared/contracts/patient-import';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { bufferStream } from '../../lib/storage';
import type { PhiKeys } from '../../lib/phi-crypto';
import { audit, type AuditContext } from '../../plugins/audit';
import type { AuthContext } from '../auth/session.service';
import { projectInfo } from '../../domain/crf/crf-definition.repository';
import { EXCEL_CONTENT_TYPE } from '../database-io/excel';
import type { FileService } from '../file/file.service';
import { writeRecord } from '../patient-record/record-writer';
import type { PatientFollowupSync } from '../../domain/patient-change/followup-sync';
import { forgetPatientListTotals, type PatientService } from '../patient/patient.service';
import { requireProjectScope, type ProjectScope } from '../../domain/scope/project-scope';
import { analyseImport } from './import-analysis';
import { M } from './import-plan';
import { dictOptionsOf, sourcesOf } from './import-sources';
import { buildTemplate } from './import-workbook';
import { insertImportBatch, projectCenters } from './patient-import.repository';

export { PATIENT_IMPORT_MESSAGES } from './import-plan';

const safeName = (name: string) => name.replace(/[\\/:*?"<>|\s]+/g, '_').slice(0, 80);

const issuePath = (e: ImportCellError) =>
  [`第${e.row}行`, e.column ? `${e.column}列` : '', e.header].filter((p) => p !== '').join(' ');

export type PatientImportService = ReturnType<typeof createPatientImportService>;

/**
 * Patients and their CRF data from Excel: the template of the current published version, a dry run that checks
 * every cell and writes nothing, and an all-or-nothing commit (the workbook kept through the file storage, an
 * `import_batches` row, patients created and updated by the patient service's own writes, each form written by the
 * record writer with source `import` and `{ batchId, fileName, row }`, one `patient.import` audit event). The dry
 * run's steps: import-analysis.ts (cells: import-parse.ts, rows: import-row-plan.ts, the plan's types and messages:
 * import-plan.ts).
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

  /** The dry run's checks (import-analysis.ts). */
  const analyse = (scope: ProjectScope, upload: { fileName: string; data: Buffer }) =>
    analyseImport({ db, clock, keys, patients }, scope, upload);

  return {
    async template(auth: AuthContext): Promise<{ fileName: string; contentType: string; body: Buffer }> {
      const scope = await requireProjectScope(db, auth);
      const sources = await sourcesOf(db, scope);
      const info = await projectInfo(db, scope);
      const centers = (await projectCenters(db, scope)).filter(
        (c) => c.status === 'active' && (scope.centerId === null || c.id === scope.centerId),
      );
      const body = await buildTemplate(
        sources.columns,
        { centers, dictOptions: await dictOptionsOf(db, scope, sources) },
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
        const stored = { fileName: upload.fileName, stream: bufferStream(upload.data) };
        const committed = await files.storeWithin(auth, stored, 'attachment', ctx, async (tx, file) => {
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
