/**
 * The codes and labels of data exports (`/retrieval/export`, issue 15), zod-free so that a page can show them without
 * loading zod (quality P7); the contract is `export.ts`.
 */

/** The formats of an export. The statistics packages get a data file plus a syntax file that applies the labels. */
export const EXPORT_FORMATS = ['csv', 'xlsx', 'spss', 'stata', 'sas', 'r', 'odm'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_FORMAT_LABELS: Record<ExportFormat, string> = {
  csv: 'CSV（UTF-8，Excel 可直接打开）',
  xlsx: 'Excel（XLSX）',
  spss: 'SPSS（数据 + 语法文件 .sps）',
  stata: 'Stata（数据 + do 文件）',
  sas: 'SAS（数据 + 程序 .sas）',
  r: 'R（数据 + 脚本 .r）',
  odm: 'CDISC ODM 1.3.2（XML）',
};

/** Short names of the formats, for tables. */
export const EXPORT_FORMAT_SHORT: Record<ExportFormat, string> = {
  csv: 'CSV',
  xlsx: 'XLSX',
  spss: 'SPSS',
  stata: 'Stata',
  sas: 'SAS',
  r: 'R',
  odm: 'ODM',
};

/** Coded fields as their codes (what the syntax files label) or as their labels. */
export const EXPORT_VALUE_MODES = ['codes', 'labels'] as const;
export type ExportValueMode = (typeof EXPORT_VALUE_MODES)[number];
export const EXPORT_VALUE_MODE_LABELS: Record<ExportValueMode, string> = { codes: '原始编码', labels: '选项文字' };

/**
 * The states of an export: queued, running, completed (its file can be downloaded until `expiresAt`), failed,
 * cancelled, expired (the file was removed).
 */
export const EXPORT_STATES = ['queued', 'running', 'completed', 'failed', 'cancelled', 'expired'] as const;
export type ExportState = (typeof EXPORT_STATES)[number];

export const EXPORT_STATE_LABELS: Record<ExportState, string> = {
  queued: '排队中',
  running: '导出中',
  completed: '已完成',
  failed: '失败',
  cancelled: '已取消',
  expired: '已过期',
};

/** States in which an export may still be cancelled. */
export const EXPORT_CANCELLABLE: readonly ExportState[] = ['queued', 'running'];

/** How many days a finished export's file can be downloaded. */
export const EXPORT_RETENTION_DAYS = 7;

/** At most this many forms and fields may be chosen by name (the rest: all of them). */
export const EXPORT_LIMITS = { forms: 200, fieldsPerForm: 1000 } as const;
