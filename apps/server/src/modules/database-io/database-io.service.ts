import type { ImportNote, ImportResponse } from '@registry/shared/contracts/form-definition';
import { checkDefinition } from '@registry/shared/forms/check';
import type { Definition } from '@registry/shared/forms/definition';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { audit, type AuditContext } from '../../plugins/audit';
import type { AuthContext } from '../auth/session.service';
import { definitionCounts } from '../database/database.presenter';
import {
  availableDictCodes,
  latestVersion,
  loadDraft,
  loadVersion,
  projectInfo,
} from '../../domain/crf/crf-definition.repository';
import { isUuid, requireProjectScope, type ProjectScope } from '../../domain/scope/project-scope';
import { definitionToWorkbook, EXCEL_CONTENT_TYPE, workbookToDefinition } from './excel';
import { definitionToOdm, ODM_CONTENT_TYPE } from '../../lib/odm/odm';
import { redcapToDefinition } from './redcap';

export const IO_MESSAGES = {
  versionNotFound: '版本不存在',
  excelRefused: 'Excel 数据字典有误，未能导入',
  redcapRefused: 'REDCap 数据字典有误，未能导入',
  wrongExcelType: '请上传 Excel 数据字典（.xlsx）',
  wrongCsvType: '请上传 REDCap 数据字典（.csv）',
} as const;

export type ExportFormat = 'excel' | 'odm';
export type ExportFile = { fileName: string; contentType: string; body: Buffer };

/** Notes of a refused file as the envelope's issues (the path names the row and column). */
const issuesOf = (notes: ImportNote[]) =>
  notes
    .filter((n) => n.severity === 'error')
    .map((n) => ({ path: [n.row ?? '', n.column ?? ''].filter((p) => p !== '').join(':'), message: n.message }));

const safeName = (name: string) => name.replace(/[\\/:*?"<>|\s]+/g, '_').slice(0, 80);

export type DatabaseIoService = ReturnType<typeof createDatabaseIoService>;

/**
 * Import (parse and report, nothing saved) and export (audited) of the current project's definition: the Excel data
 * dictionary, REDCap data dictionaries and CDISC ODM 1.3.2.
 */
export function createDatabaseIoService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  /** The engine's problems of an imported definition, with the parent's keys and the tenant's dictionaries. */
  async function problemsOf(scope: ProjectScope, definition: Definition) {
    const info = await projectInfo(db, scope);
    const parent = info.parentId
      ? await latestVersion(db, { tenantId: scope.tenantId, projectId: info.parentId })
      : undefined;
    const dictCodes = await availableDictCodes(db, scope.tenantId);
    return checkDefinition(definition, { ...(parent ? { parent: parent.definition } : {}), dictCodes });
  }

  async function report(
    scope: ProjectScope,
    definition: Definition,
    notes: ImportNote[],
    summary?: ImportResponse['summary'],
  ): Promise<ImportResponse> {
    const counts = definitionCounts(definition);
    return {
      definition,
      notes,
      formCount: counts.formCount,
      fieldCount: counts.fieldCount,
      problems: await problemsOf(scope, definition),
      ...(summary ? { summary } : {}),
    };
  }

  /** The draft (no versionId) or a version of this project or of its parent. */
  async function source(scope: ProjectScope, versionId: string | undefined) {
    const info = await projectInfo(db, scope);
    if (versionId === undefined) {
      const draft = await loadDraft(db, scope);
      return { info, definition: draft.definition, versionNo: null, versionId: null };
    }
    const row = isUuid(versionId) ? await loadVersion(db, scope, versionId, { parentId: info.parentId }) : undefined;
    if (!row) throw new AppError(404, IO_MESSAGES.versionNotFound);
    return { info, definition: row.definition, versionNo: row.versionNo, versionId: row.id };
  }

  return {
    async importExcel(auth: AuthContext, file: { fileName: string; data: Buffer }): Promise<ImportResponse> {
      const scope = await requireProjectScope(db, auth);
      if (!/\.xlsx$/i.test(file.fileName)) throw new AppError(400, IO_MESSAGES.wrongExcelType);
      const result = await workbookToDefinition(file.data);
      if (!result.definition) throw new AppError(400, IO_MESSAGES.excelRefused, issuesOf(result.notes));
      return report(scope, result.definition, result.notes);
    },

    async importRedcap(auth: AuthContext, file: { fileName: string; data: Buffer }): Promise<ImportResponse> {
      const scope = await requireProjectScope(db, auth);
      if (!/\.csv$/i.test(file.fileName)) throw new AppError(400, IO_MESSAGES.wrongCsvType);
      const result = redcapToDefinition(file.data);
      if (!result.definition) throw new AppError(400, IO_MESSAGES.redcapRefused, issuesOf(result.notes));
      return report(scope, result.definition, result.notes, result.summary);
    },

    async export(
      auth: AuthContext,
      format: ExportFormat,
      versionId: string | undefined,
      ctx: AuditContext,
    ): Promise<ExportFile> {
      const scope = await requireProjectScope(db, auth);
      const src = await source(scope, versionId);
      const now = clock.now();
      const versionLabel = src.versionNo === null ? '草稿' : `v${src.versionNo}`;
      const stamp = now.toISOString().replace(/[-:]/g, '').slice(0, 15);
      let file: ExportFile;
      if (format === 'excel') {
        file = {
          fileName: `数据字典-${safeName(src.info.name)}-${versionLabel}.xlsx`,
          contentType: EXCEL_CONTENT_TYPE,
          body: await definitionToWorkbook(src.definition),
        };
      } else {
        const xml = definitionToOdm(src.definition, {
          studyOid: `S.${scope.projectId}`,
          studyName: src.info.name,
          studyDescription: src.info.parentName ? `${src.info.parentName} / ${src.info.name}` : src.info.name,
          protocolName: src.info.name,
          versionOid: src.versionNo === null ? 'MDV.draft' : `MDV.v${src.versionNo}`,
          versionName: src.versionNo === null ? '草稿' : `第 ${src.versionNo} 版`,
          fileOid: `ODM.${scope.projectId}.${src.versionNo === null ? 'draft' : `v${src.versionNo}`}.${stamp}`,
          createdAt: now,
        });
        file = {
          fileName: `${safeName(src.info.name)}-${versionLabel}-odm.xml`,
          contentType: `${ODM_CONTENT_TYPE}; charset=utf-8`,
          body: Buffer.from(xml, 'utf8'),
        };
      }
      await db.transaction(async (tx) => {
        await audit(
          tx,
          ctx,
          {
            action: 'form_definition.export',
            entityType: src.versionId ? 'form_version' : 'form_draft',
            entityId: src.versionId ?? scope.projectId,
            newValue: {
              projectId: scope.projectId,
              format,
              versionId: src.versionId,
              versionNo: src.versionNo,
              ...definitionCounts(src.definition),
            },
          },
          now,
        );
      });
      return file;
    },
  };
}
