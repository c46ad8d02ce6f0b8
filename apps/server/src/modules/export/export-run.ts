import { PassThrough, type Writable } from 'node:stream';
import { checkCohort } from '@registry/shared/cohort/check';
import type { CohortDefinition } from '@registry/shared/cohort/definition';
import type { ExportFormat } from '@registry/shared/contracts/export-codes';
import { EXPORT_RETENTION_DAYS } from '@registry/shared/contracts/export-codes';
import { shanghaiDate } from '@registry/shared/dates';
import type { AnyField, Definition, FormDefinition } from '@registry/shared/forms/definition';
import { listFormFields } from '@registry/shared/forms/walk';
import type pg from 'pg';
import type { Db } from '../../db/client';
import { compileCohort } from '../../domain/cohort/cohort.repository';
import { scopeForms, type ScopedForm } from '../../domain/cohort/cohort-forms';
import type { DefinitionCache } from '../../domain/crf/definition-cache';
import { EXPORT_POLICY } from '../../domain/jobs/job-queues';
import type { ProjectScope } from '../../domain/scope/project-scope';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { ODM_CONTENT_TYPE, studyEventOid, type OdmStudyInfo } from '../../lib/odm/odm';
import { decryptPhi, type PhiKeys } from '../../lib/phi-crypto';
import type { ObjectStorage } from '../../lib/storage';
import { audit } from '../../plugins/audit';
import { JobCancelledError, type JobContext } from '../jobs/job-queue';
import {
  chosenFields,
  exportPlan,
  exportsField,
  groupRows,
  identifyingKeys,
  shiftDate,
  shiftDateTime,
  type ChosenForm,
  type ExportOptions,
  type ExportPatient,
  type ExportPlan,
  type PlanTable,
} from './export-plan';
import {
  dictOptionLabels,
  findExportJobById,
  updateExportJob,
  withExportSnapshot,
  type ExportJobRow,
  type ExportPatientRow,
  type ExportSnapshot,
} from './export.repository';
import { writeCsv } from './formats/csv-writer';
import type { ExportRow, ExportWriteResult } from './formats/export-table';
import {
  odmRecordContext,
  recordFormData,
  writeOdmClinicalData,
  type OdmSubjectData,
} from './formats/odm-clinical-writer';
import { statsFiles, writeStatsData } from './formats/stats-export';
import { writeXlsx } from './formats/xlsx-writer';
import { writeZip, type ZipEntry } from './formats/zip-writer';

/** The payload of an export job. */
export type ExportJobData = { exportId: string };

/** A failure the user is told about as it is (Chinese, no internals). */
export class ExportFailure extends Error {}

const GENERIC_FAILURE = '导出失败，请稍后重试';
const DICT_LABEL_LIMIT = 50_000;
/** Progress is reported (and cancellation checked) at most this often. */
const PROGRESS_EVERY_MS = 1000;

export type ExportRunDeps = {
  db: Db;
  pool: pg.Pool;
  clock: Clock;
  storage: ObjectStorage;
  definitions: DefinitionCache;
  keys: PhiKeys;
};

/** The scope an export runs in: the one it was asked in (kept on the row), as the asking user. */
export function exportScope(row: ExportJobRow): ProjectScope {
  return {
    tenantId: row.tenantId,
    userId: row.createdBy,
    projectId: row.projectId,
    rootProjectId: row.rootProjectId,
    centerId: row.centerId,
    permissions: [],
  };
}

/**
 * The forms an export writes, from the scope's published forms and the user's choice (null: every form, all fields):
 * an unknown form or field is named in a 400 (when asked) or a failure (when the definition changed since).
 */
export function chooseForms(
  forms: readonly ScopedForm[],
  choice: readonly { key: string; fields?: readonly string[] }[] | null,
): ChosenForm[] {
  const byKey = new Map(forms.map((f) => [f.form.key, f.definition]));
  if (!choice) return [...byKey.values()].map((form) => ({ form }));
  const seen = new Set<string>();
  return choice.map((c, i) => {
    const form = byKey.get(c.key);
    if (!form)
      throw new AppError(400, `表单 ${c.key} 不存在`, [{ path: `forms.${i}.key`, message: `表单 ${c.key} 不存在` }]);
    if (seen.has(c.key))
      throw new AppError(400, `表单「${form.title}」重复选择`, [{ path: `forms.${i}.key`, message: '表单重复选择' }]);
    seen.add(c.key);
    if (c.fields) {
      const keys = new Set(form.fields.map((f) => f.key));
      const unknown = c.fields.findIndex((k) => !keys.has(k));
      if (unknown >= 0) {
        const message = `表单「${form.title}」没有字段 ${c.fields[unknown]}`;
        throw new AppError(400, message, [{ path: `forms.${i}.fields.${unknown}`, message }]);
      }
    }
    return { form, ...(c.fields ? { fields: c.fields } : {}) };
  });
}

/** The file an export writes: its name in the storage and the download, and its type. */
function outputName(format: ExportFormat, plan: ExportPlan, stamp: string): { fileName: string; contentType: string } {
  const base = `export_${stamp}`;
  if (format === 'odm') return { fileName: `${base}_odm.xml`, contentType: ODM_CONTENT_TYPE };
  if (plan.tables.length === 1 && format === 'csv') return { fileName: `${base}.csv`, contentType: 'text/csv' };
  if (plan.tables.length === 1 && format === 'xlsx')
    return {
      fileName: `${base}.xlsx`,
      contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    };
  return { fileName: `${base}_${format}.zip`, contentType: 'application/zip' };
}

const patientOf = (row: ExportPatientRow, keys: PhiKeys | null): ExportPatient => ({
  patientNo: row.patient_no,
  name: row.name ?? '',
  gender: row.gender,
  birthDate: row.birth_date,
  hospitalNo: row.hospital_no,
  idNumber: keys && row.id_number_enc ? decryptPhi(keys, row.id_number_enc) : null,
  phone: keys && row.phone_enc ? decryptPhi(keys, row.phone_enc) : null,
  centerName: row.center_name,
  subProjectName: row.sub_project_name,
  enrolDate: row.enrol_date,
  status: row.status,
  deathDate: row.death_date,
  pseudonym: row.pseudonym,
  shiftDays: row.shift_days,
});

/** Counts the patients written and reports progress (which throws once the job was cancelled). */
class Progress {
  done = 0;
  private last = 0;
  constructor(
    private readonly report: (percent: number, message: string) => Promise<void>,
    private readonly expected: number,
    private readonly now: () => number,
  ) {}
  async step(): Promise<void> {
    this.done++;
    const t = this.now();
    if (t - this.last < PROGRESS_EVERY_MS) return;
    this.last = t;
    const share = this.expected === 0 ? 1 : this.done / this.expected;
    await this.report(Math.min(99, Math.floor(share * 99)), `${this.done} / ${this.expected}`);
  }
}

/** The rows of one table of the plan, read from the snapshot; the patient table's rows step `progress`. */
async function* tableRows(
  table: PlanTable,
  snapshot: ExportSnapshot,
  keys: PhiKeys | null,
  progress: Progress,
): AsyncGenerator<ExportRow> {
  const { source, columns } = table;
  if (source.kind === 'patients') {
    for await (const row of snapshot.patients(source.formKeys)) {
      const values: Record<string, unknown> = {};
      for (const r of row.records) if (r.i === 1) values[r.k] = r.d;
      const ctx = { patient: patientOf(row, keys), values };
      yield columns.map((c) => c.read(ctx));
      await progress.step();
    }
    return;
  }
  for await (const row of snapshot.records(source.formKey)) {
    const patient = patientOf(row, keys);
    if (source.kind === 'form') {
      const ctx = { patient, values: row.data, instance: row.instance };
      yield columns.map((c) => c.read(ctx));
      continue;
    }
    let rowNo = 0;
    for (const values of groupRows(row.data, source.groupKey)) {
      rowNo++;
      const ctx = { patient, values, instance: row.instance, rowNo };
      yield columns.map((c) => c.read(ctx));
    }
  }
}

/** A form narrowed to what the export writes, for the ODM metadata and ClinicalData. */
function odmForm(chosen: ChosenForm, options: ExportOptions): FormDefinition {
  const keep = (f: AnyField) => f.type === 'group' || exportsField(f, options);
  const fields = chosenFields(chosen)
    .filter(keep)
    .map((f) => (f.type === 'group' ? { ...f, fields: (f.fields ?? []).filter((c) => exportsField(c, options)) } : f));
  return { ...chosen.form, fields };
}

/** Stored values with the dates of a de-identified export moved by the patient's shift. */
function shiftedValues(form: FormDefinition, values: Record<string, unknown>, days: number): Record<string, unknown> {
  if (days === 0) return values;
  const shiftField = (f: AnyField, v: unknown) =>
    typeof v !== 'string'
      ? v
      : f.type === 'date'
        ? shiftDate(v, days)
        : f.type === 'datetime'
          ? shiftDateTime(v, days)?.replace(' ', 'T')
          : v;
  const out: Record<string, unknown> = { ...values };
  for (const f of form.fields) {
    if (f.type === 'group') {
      const rows = groupRows(values, f.key).map((row) => {
        const copy = { ...row };
        for (const c of f.fields ?? []) copy[c.key] = shiftField(c, row[c.key]);
        return copy;
      });
      if (Array.isArray(values[f.key])) out[f.key] = rows;
    } else out[f.key] = shiftField(f, values[f.key]);
  }
  return out;
}

/** The ODM subjects of the snapshot: each patient's records of the chosen forms, narrowed and shifted. */
async function* odmSubjects(
  forms: readonly FormDefinition[],
  definition: Definition,
  snapshot: ExportSnapshot,
  options: ExportOptions,
  progress: Progress,
): AsyncGenerator<OdmSubjectData> {
  const context = odmRecordContext(definition);
  const byKey = new Map(forms.map((f) => [f.key, f]));
  for await (const row of snapshot.patients(forms.map((f) => f.key))) {
    const events = new Map<string, ReturnType<typeof recordFormData>[]>();
    for (const r of row.records) {
      const form = byKey.get(r.k);
      if (!form) continue;
      const values = options.deidentified ? shiftedValues(form, r.d, row.shift_days) : r.d;
      const data = recordFormData(form, values, context, form.repeating ? String(r.i) : undefined);
      const event = studyEventOid(form);
      events.set(event, [...(events.get(event) ?? []), data]);
    }
    yield {
      subjectKey: (options.deidentified ? row.pseudonym : row.patient_no) ?? row.patient_no,
      events: [...events].map(([oid, f]) => ({ studyEventOid: oid, forms: f })),
    };
    await progress.step();
  }
}

/** Writes the export into `out`; resolves with what the writer reported. */
async function writeExport(
  row: ExportJobRow,
  plan: ExportPlan,
  chosen: readonly ChosenForm[],
  options: ExportOptions,
  snapshot: ExportSnapshot,
  keys: PhiKeys | null,
  progress: Progress,
  out: Writable,
  study: OdmStudyInfo,
): Promise<ExportWriteResult> {
  const format = row.format as ExportFormat;
  if (format === 'odm') {
    const forms = chosen.map((c) => odmForm(c, options));
    const definition: Definition = { categories: [{ key: 'export', title: '导出', forms }], missingCodes: [] };
    return writeOdmClinicalData(definition, study, odmSubjects(forms, definition, snapshot, options, progress), out);
  }
  const rowsOf = (t: PlanTable) => tableRows(t, snapshot, keys, progress);
  if (plan.tables.length === 1 && format === 'csv')
    return writeCsv(plan.tables[0]!.table, rowsOf(plan.tables[0]!), out);
  if (plan.tables.length === 1 && format === 'xlsx')
    return writeXlsx(plan.tables[0]!.table, rowsOf(plan.tables[0]!), out);
  const entries: ZipEntry[] = plan.tables.flatMap((t): ZipEntry[] => {
    if (format === 'csv') return [{ name: `${t.table.name}.csv`, write: (o) => writeCsv(t.table, rowsOf(t), o) }];
    if (format === 'xlsx')
      return [{ name: `${t.table.name}.xlsx`, compress: false, write: (o) => writeXlsx(t.table, rowsOf(t), o) }];
    const files = statsFiles(t.table, format);
    return [
      { name: files.dataFile, write: (o) => writeStatsData(t.table, rowsOf(t), o, format, files.names) },
      { name: files.syntaxFile, content: files.syntax },
    ];
  });
  return writeZip(entries, out);
}

/**
 * The export job (queue `retrieval.export`): reads the cohort's patients in one snapshot and streams the file to the
 * object storage, then marks the export completed with its row count and checksum and audits that, in one
 * transaction. At least once: a retry (a worker died) starts over and overwrites the object under the same key; the
 * completion happens once (only from `running`). A failure or a cancel leaves no object.
 */
export function createExportRunner(deps: ExportRunDeps) {
  const { db, clock, storage } = deps;

  async function fail(row: ExportJobRow, message: string) {
    await updateExportJob(db, row.id, ['queued', 'running'], {
      state: 'failed',
      error: message,
      finishedAt: clock.now(),
    });
  }

  return async function runExport(job: JobContext<ExportJobData>): Promise<unknown> {
    const row = await findExportJobById(db, job.data.exportId);
    if (!row || (row.state !== 'queued' && row.state !== 'running')) return { skipped: row?.state ?? 'missing' };
    const startedAt = clock.now();
    if (!(await updateExportJob(db, row.id, ['queued', 'running'], { state: 'running', startedAt, progress: 0 })))
      return { skipped: 'changed' };
    const scope = exportScope(row);
    let key: string | undefined;
    try {
      const forms = await scopeForms(db, deps.definitions, scope);
      const allFields = forms.flatMap((f) => listFormFields(f.definition).map((e) => e.field));
      const options: ExportOptions = {
        valueMode: row.valueMode === 'labels' ? 'labels' : 'codes',
        deidentified: row.deidentified,
        dropFreeText: row.dropFreeText,
        identifying: identifyingKeys(allFields),
      };
      let predicate;
      if (row.cohort) {
        const cohortForms = forms.map((f) => f.form);
        const issues = checkCohort(row.cohort as CohortDefinition, cohortForms);
        if (issues.length > 0) throw new ExportFailure(`检索条件已不适用于当前表单：${issues[0]!.message}`);
        predicate = compileCohort(row.cohort as CohortDefinition, cohortForms, shanghaiDate(clock.now()));
      }
      let chosen: ChosenForm[];
      try {
        chosen = chooseForms(forms, row.forms);
      } catch (err) {
        throw new ExportFailure(err instanceof AppError ? `所选表单已变更：${err.message}` : GENERIC_FAILURE);
      }
      const dictCodes = [
        ...new Set(
          chosen.flatMap((c) =>
            listFormFields(c.form).flatMap(({ field: f }) => (f.type === 'dict' && f.dictCode ? [f.dictCode] : [])),
          ),
        ),
      ];
      const dictLabels = await dictOptionLabels(db, row.tenantId, dictCodes, DICT_LABEL_LIMIT);
      const plan = exportPlan(chosen, options, dictLabels);
      const stamp = startedAt.toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
      const { fileName, contentType } = outputName(row.format as ExportFormat, plan, stamp);
      key = `exports/${row.tenantId}/${row.id}/${fileName}`;
      const objectKey = key;
      const keys = row.deidentified ? null : deps.keys;
      const study: OdmStudyInfo = {
        studyOid: `S.${row.rootProjectId}`,
        studyName: row.queryName ?? '项目导出',
        studyDescription: row.queryName ?? '项目导出',
        protocolName: row.rootProjectId,
        versionOid: forms[0] ? `MDV.${forms[0].versionId}` : 'MDV.none',
        versionName: forms[0] ? forms[0].versionId : 'none',
        fileOid: `EXPORT.${row.id}`,
        createdAt: startedAt,
      };

      const written = await withExportSnapshot(deps.pool, scope, predicate, !row.deidentified, async (snapshot) => {
        if (row.deidentified) await snapshot.fillPseudonyms();
        const expected = await snapshot.count();
        // the job's own progress (it throws once the job was cancelled), and the export's, which its page reads
        const report = async (percent: number, message: string) => {
          await job.progress(percent, message);
          await updateExportJob(db, row.id, ['running'], { progress: percent });
        };
        const progress = new Progress(report, expected, () => Date.now());
        const body = new PassThrough();
        const stored = storage.put(objectKey, body, { contentType });
        // a storage that fails stops the writer (its stream is destroyed) instead of leaving it waiting for a drain
        stored.catch((err: unknown) => body.destroy(err instanceof Error ? err : new Error(String(err))));
        const result = await writeExport(row, plan, chosen, options, snapshot, keys, progress, body, study);
        await stored;
        if (progress.done !== expected)
          throw new ExportFailure(`导出的患者数（${progress.done}）与检索结果（${expected}）不一致，已中止`);
        return { ...result, rows: expected };
      });

      const finishedAt = clock.now();
      const completed = await db.transaction(async (tx) => {
        const done = await updateExportJob(tx, row.id, ['running'], {
          state: 'completed',
          progress: 100,
          rowCount: written.rows,
          fileKey: objectKey,
          fileName,
          fileSize: written.bytes,
          sha256: written.sha256,
          finishedAt,
          expiresAt: new Date(finishedAt.getTime() + EXPORT_RETENTION_DAYS * 86_400_000),
        });
        if (!done) return false;
        await audit(
          tx,
          {
            actorId: row.createdBy,
            tenantId: row.tenantId,
            projectId: row.projectId,
            requestId: `job:${job.id}`,
            ip: null,
          },
          {
            action: 'export.complete',
            entityType: 'export_job',
            entityId: row.id,
            newValue: {
              format: row.format,
              query: row.queryId ? { id: row.queryId, name: row.queryName } : null,
              forms: row.forms,
              deidentified: row.deidentified,
              rowCount: written.rows,
              fileName,
              bytes: written.bytes,
              sha256: written.sha256,
            },
          },
          finishedAt,
        );
        return true;
      });
      if (!completed) await storage.delete(objectKey); // cancelled while it was being written
      return { rows: written.rows, sha256: written.sha256 };
    } catch (err) {
      if (key) await storage.delete(key).catch(() => undefined);
      if (err instanceof JobCancelledError) {
        await updateExportJob(db, row.id, ['queued', 'running'], { state: 'cancelled', finishedAt: clock.now() });
        return { cancelled: true };
      }
      if (err instanceof ExportFailure) {
        await fail(row, err.message);
        return { failed: err.message };
      }
      // another attempt follows unless this was the last one
      if (job.retryCount >= EXPORT_POLICY.retryLimit) await fail(row, GENERIC_FAILURE);
      throw err;
    }
  };
}
