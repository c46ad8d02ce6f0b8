import { z } from 'zod';
import { page, pageRequest } from './envelope';
import { EXPORT_FORMATS, EXPORT_LIMITS, EXPORT_STATES, EXPORT_VALUE_MODES } from './export-codes';

export * from './export-codes';

/**
 * Data exports (`/retrieval/export`, issue 15). Base `retrieval/export`. An export is a job: it reads the patients of
 * a saved query (or the whole current project) in the caller's scope, in one snapshot, and writes one file to the
 * object storage (a ZIP when there are several: one table of one row per patient, one per repeating form and one per
 * table field). Every call needs `retrieval.export`; identified exports also need `patient.export` and `patient.pii`
 * (the statistician's role has neither: de-identified only).
 */

const formKey = z.string().max(100, '表单编码不能超过100个字符');
const fieldKey = z.string().max(100, '变量名不能超过100个字符');

/** One form to export, with the fields chosen (absent: all of its fields). */
export const exportFormChoice = z.object({
  key: formKey,
  fields: z
    .array(fieldKey)
    .min(1, '请至少选择一个字段')
    .max(EXPORT_LIMITS.fieldsPerForm, `每个表单最多选择${EXPORT_LIMITS.fieldsPerForm}个字段`)
    .optional(),
});
export type ExportFormChoice = z.infer<typeof exportFormChoice>;

/** `POST retrieval/export`: starts an export job. */
export const exportCreateRequest = z.object({
  /** A saved query the caller may see; absent or null: every patient of the caller's scope in the project. */
  queryId: z.string().max(64, '检索不存在').nullish(),
  format: z.enum(EXPORT_FORMATS, '导出格式不正确'),
  values: z.enum(EXPORT_VALUE_MODES, '取值方式不正确').default('codes'),
  /** The forms (and fields) to export; absent: every form of the published definition. */
  forms: z
    .array(exportFormChoice)
    .min(1, '请至少选择一个表单')
    .max(EXPORT_LIMITS.forms, `最多选择${EXPORT_LIMITS.forms}个表单`)
    .optional(),
  /**
   * De-identified: direct identifiers (name, ID number, phone, hospital number, address, birth date) and PHI-flagged
   * fields dropped, the patient known by a study pseudonym, every date shifted by the patient's own kept offset.
   */
  deidentified: z.boolean().default(true),
  /** With `deidentified`: also drop free text (text and text-area fields), where names hide in practice. */
  dropFreeText: z.boolean().default(false),
});
export type ExportCreateRequest = z.input<typeof exportCreateRequest>;
export type ExportCreateInput = z.output<typeof exportCreateRequest>;

/** An export of the current project, as the history and the progress bar show it. */
export const exportJobVO = z.object({
  id: z.string(),
  state: z.enum(EXPORT_STATES),
  /** 0–100 while it runs (100 once completed). */
  progress: z.number().int(),
  format: z.enum(EXPORT_FORMATS),
  values: z.enum(EXPORT_VALUE_MODES),
  deidentified: z.boolean(),
  dropFreeText: z.boolean(),
  /** The saved query's name when it was started; null: the whole project. */
  queryName: z.string().nullable(),
  /** How many forms were chosen; null: all. */
  formCount: z.number().int().nullable(),
  /** Patients exported (the query's count in the export's snapshot), once completed. */
  rowCount: z.number().int().nullable(),
  fileName: z.string().nullable(),
  fileSize: z.number().int().nullable(),
  /** SHA-256 of the file (hex), once completed. */
  sha256: z.string().nullable(),
  /** Why it failed (a Chinese message, no internals). */
  error: z.string().nullable(),
  createdByName: z.string(),
  /** The caller started it: only they may download or cancel it. */
  mine: z.boolean(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Until when the file can be downloaded. */
  expiresAt: z.string().nullable(),
});
export type ExportJobVO = z.infer<typeof exportJobVO>;

/** `GET retrieval/export/list`: the current project's exports, newest first. */
export const exportListQuery = pageRequest.extend({
  /** Only the caller's own. */
  mine: z
    .enum(['true', 'false'], '参数不正确')
    .optional()
    .transform((v) => v === 'true'),
});
export type ExportListQuery = z.input<typeof exportListQuery>;
export const exportListResponse = page(exportJobVO);

/** `GET retrieval/export/detail?id=`, `GET retrieval/export/download?id=`, `POST retrieval/export/cancel`. */
export const exportIdQuery = z.object({ id: z.string().max(64, '导出任务不存在') });
export const exportIdRequest = exportIdQuery;
