import { checkCohort } from '@registry/shared/cohort/check';
import type { CohortDefinition } from '@registry/shared/cohort/definition';
import { EXPORT_STATES, type ExportState } from '@registry/shared/contracts/export-codes';
import type { ExportCreateInput, ExportJobVO } from '@registry/shared/contracts/export';
import { PERMISSIONS } from '@registry/shared/permissions';
import type { Db } from '../../db/client';
import { scopeForms } from '../../domain/cohort/cohort-forms';
import type { DefinitionCache } from '../../domain/crf/definition-cache';
import { EXPORT_QUEUE } from '../../domain/jobs/job-queues';
import { isUuid, requireProjectScope, type ProjectScope } from '../../domain/scope/project-scope';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { StorageNotFoundError, type ObjectStorage } from '../../lib/storage';
import { audit, type AuditContext } from '../../plugins/audit';
import type { AuthContext } from '../auth/session.service';
import type { JobQueue } from '../jobs/job-queue';
import { chooseForms } from './export-run';
import {
  findExportJob,
  findVisibleQuery,
  insertExportJob,
  listExportJobs,
  updateExportJob,
  type ExportJobListRow,
} from './export.repository';

export const EXPORT_MESSAGES = {
  notFound: '导出任务不存在',
  queryNotFound: '检索不存在',
  identifiedDenied: '您的角色只能导出去标识化数据',
  notMine: '只能下载或取消自己发起的导出',
  notReady: '导出尚未完成，暂不能下载',
  expired: '导出文件已过期，请重新导出',
  finished: '导出已结束，无法取消',
} as const;
const M = EXPORT_MESSAGES;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function present(scope: ProjectScope, r: ExportJobListRow): ExportJobVO {
  const state = (EXPORT_STATES as readonly string[]).includes(r.state) ? (r.state as ExportState) : 'failed';
  return {
    id: r.id,
    state,
    progress: state === 'completed' ? 100 : r.progress,
    format: r.format as ExportJobVO['format'],
    values: r.valueMode === 'labels' ? 'labels' : 'codes',
    deidentified: r.deidentified,
    dropFreeText: r.dropFreeText,
    queryName: r.queryName,
    formCount: r.forms ? r.forms.length : null,
    rowCount: r.rowCount,
    fileName: r.fileName,
    fileSize: r.fileSize,
    sha256: r.sha256,
    error: r.error,
    createdByName: r.createdByName,
    mine: r.createdBy === scope.userId,
    createdAt: r.createdAt.toISOString(),
    finishedAt: iso(r.finishedAt),
    expiresAt: iso(r.expiresAt),
  };
}

/**
 * Data exports of the current project (issue 15): asked here, written by the export job (export-run.ts). Who may
 * export: `retrieval.export` (the route's code) for de-identified data; identified data also needs `patient.export`
 * and `patient.pii`. The scope (project, sub-project, center) is the session's, kept on the export for its job. Only the
 * user who asked may download or cancel; the project's exports are listed to everyone who may export.
 */
export function createExportService(deps: {
  db: Db;
  clock: Clock;
  definitions: DefinitionCache;
  jobs: JobQueue;
  storage: ObjectStorage;
}) {
  const { db, clock, definitions, jobs, storage } = deps;

  async function visible(scope: ProjectScope, id: string): Promise<ExportJobListRow> {
    const row = isUuid(id) ? await findExportJob(db, scope, id) : undefined;
    if (!row) throw new AppError(404, M.notFound);
    return row;
  }

  async function own(scope: ProjectScope, id: string): Promise<ExportJobListRow> {
    const row = await visible(scope, id);
    if (row.createdBy !== scope.userId) throw new AppError(403, M.notMine);
    return row;
  }

  return {
    async create(auth: AuthContext, input: ExportCreateInput, ctx: AuditContext): Promise<ExportJobVO> {
      const scope = await requireProjectScope(db, auth);
      const held = scope.permissions;
      if (!input.deidentified && !(held.includes(PERMISSIONS.patientExport) && held.includes(PERMISSIONS.patientPii)))
        throw new AppError(403, M.identifiedDenied);
      const forms = await scopeForms(db, definitions, scope);
      let query: { id: string; name: string; definition: CohortDefinition } | undefined;
      if (input.queryId) {
        query = isUuid(input.queryId) ? await findVisibleQuery(db, scope, input.queryId) : undefined;
        if (!query) throw new AppError(404, M.queryNotFound, [{ path: 'queryId', message: M.queryNotFound }]);
        const issues = checkCohort(
          query.definition,
          forms.map((f) => f.form),
        );
        if (issues.length > 0) {
          const message = `检索「${query.name}」已不适用于当前表单：${issues[0]!.message}`;
          throw new AppError(400, message, [{ path: 'queryId', message }]);
        }
      }
      const choice = input.forms
        ? input.forms.map((f) => ({ key: f.key, ...(f.fields ? { fields: f.fields } : {}) }))
        : null;
      chooseForms(forms, choice); // 400 naming an unknown form or field
      const now = clock.now();
      const id = await db.transaction(async (tx) => {
        const exportId = await insertExportJob(tx, {
          tenantId: scope.tenantId,
          projectId: scope.projectId,
          rootProjectId: scope.rootProjectId,
          centerId: scope.centerId,
          createdBy: scope.userId,
          queryId: query?.id ?? null,
          queryName: query?.name ?? null,
          cohort: query?.definition ?? null,
          format: input.format,
          valueMode: input.values,
          forms: choice,
          deidentified: input.deidentified,
          dropFreeText: input.deidentified && input.dropFreeText,
          state: 'queued',
          createdAt: now,
        });
        const jobId = await jobs.enqueue(
          tx,
          EXPORT_QUEUE,
          { tenantId: scope.tenantId, userId: scope.userId },
          { exportId },
        );
        await updateExportJob(tx, exportId, ['queued'], { jobId });
        await audit(
          tx,
          ctx,
          {
            action: 'export.create',
            entityType: 'export_job',
            entityId: exportId,
            newValue: {
              format: input.format,
              values: input.values,
              query: query ? { id: query.id, name: query.name } : null,
              forms: choice,
              deidentified: input.deidentified,
              dropFreeText: input.deidentified && input.dropFreeText,
            },
          },
          now,
        );
        return exportId;
      });
      return present(scope, await visible(scope, id));
    },

    async list(auth: AuthContext, input: { current: number; size: number; mine: boolean }) {
      const scope = await requireProjectScope(db, auth);
      const { rows, total } = await listExportJobs(db, scope, {
        offset: (input.current - 1) * input.size,
        limit: input.size,
        mine: input.mine,
      });
      return { records: rows.map((r) => present(scope, r)), total, current: input.current, size: input.size };
    },

    async detail(auth: AuthContext, id: string): Promise<ExportJobVO> {
      const scope = await requireProjectScope(db, auth);
      return present(scope, await visible(scope, id));
    },

    async cancel(auth: AuthContext, id: string, ctx: AuditContext): Promise<ExportJobVO> {
      const scope = await requireProjectScope(db, auth);
      const row = await own(scope, id);
      if (row.state !== 'queued' && row.state !== 'running') throw new AppError(409, M.finished);
      const now = clock.now();
      await db.transaction(async (tx) => {
        if (!(await updateExportJob(tx, row.id, ['queued', 'running'], { state: 'cancelled', finishedAt: now })))
          throw new AppError(409, M.finished);
        // the running job stops at its next progress report and removes what it wrote
        if (row.jobId) await jobs.cancel(tx, EXPORT_QUEUE, row.jobId);
        await audit(tx, ctx, { action: 'export.cancel', entityType: 'export_job', entityId: row.id }, now);
      });
      return present(scope, await visible(scope, row.id));
    },

    /** The file of the caller's completed export, audited (file name, rows, checksum) before a byte is sent. */
    async download(auth: AuthContext, id: string, ctx: AuditContext) {
      const scope = await requireProjectScope(db, auth);
      const row = await own(scope, id);
      if (row.state === 'expired') throw new AppError(410, M.expired);
      if (row.state !== 'completed' || !row.fileKey || !row.fileName) throw new AppError(409, M.notReady);
      const now = clock.now();
      if (row.expiresAt && row.expiresAt <= now) throw new AppError(410, M.expired);
      let object;
      try {
        object = await storage.get(row.fileKey);
      } catch (err) {
        if (err instanceof StorageNotFoundError) throw new AppError(410, M.expired);
        throw err;
      }
      try {
        await db.transaction(async (tx) =>
          audit(
            tx,
            ctx,
            {
              action: 'export.download',
              entityType: 'export_job',
              entityId: row.id,
              newValue: {
                fileName: row.fileName,
                format: row.format,
                deidentified: row.deidentified,
                rowCount: row.rowCount,
                sha256: row.sha256,
              },
            },
            now,
          ),
        );
      } catch (err) {
        object.stream.destroy();
        throw err;
      }
      return { fileName: row.fileName, contentType: object.contentType, stream: object.stream, size: object.size };
    },
  };
}

export type ExportService = ReturnType<typeof createExportService>;
