import { z } from 'zod';
import { int4 } from './fields';
import { definitionSchema } from '../forms/definition';

/**
 * The project's database (CRF definition) of the current project, base `form-definition`. A project (or sub-project)
 * has one working draft and a list of immutable published versions; a sub-project sees its parent's latest published
 * definition (read-only) plus its own forms. Every call works on the session's current project. A locked or archived
 * project keeps its database: save, publish and discard answer 409 '项目已锁定或归档，数据库不能修改'.
 */

/** A problem of a definition found by the engine's `checkDefinition` (a path into the definition). */
export const definitionProblem = z.object({
  /** e.g. `categories.0.forms.1.fields.3.showIf` */
  path: z.string(),
  formKey: z.string().nullable(),
  fieldKey: z.string().nullable(),
  message: z.string(),
  /** For logic expressions: the 0-based character offset of the error in the expression. */
  position: z.number().int().nullable(),
});
export type DefinitionProblem = z.infer<typeof definitionProblem>;

export const DIFF_KINDS = ['added', 'removed', 'changed', 'moved'] as const;
/** One change between two definitions, readable by a person. */
export const definitionChange = z.object({
  kind: z.enum(DIFF_KINDS),
  entity: z.enum(['category', 'form', 'field', 'definition']),
  categoryKey: z.string().nullable(),
  formKey: z.string().nullable(),
  /** For a group's column: `group.column`. */
  fieldKey: z.string().nullable(),
  /** The changed property (`label`, `type`, `options`, `showIf`, ...) of a 'changed' entry. */
  property: z.string().nullable(),
  before: z.unknown().optional(),
  after: z.unknown().optional(),
  /** A Chinese sentence: `表单「基线」字段 bmi：名称由「BMI」改为「体重指数」`. */
  summary: z.string(),
  /** Would leave entered data without a home or meaning (field removed, type changed, option code removed). */
  breaking: z.boolean(),
});
export type DefinitionChange = z.infer<typeof definitionChange>;

export const versionSummary = z.object({
  id: z.string(),
  versionNo: z.number().int(),
  note: z.string().nullable(),
  publishedAt: z.string(),
  publishedBy: z.string(),
  publishedByName: z.string(),
  changeCount: z.number().int(),
  formCount: z.number().int(),
  fieldCount: z.number().int(),
});
export type VersionSummary = z.infer<typeof versionSummary>;

/** `GET form-definition/draft` (`database.config`): the working draft of the current project. */
export const draftResponse = z.object({
  projectId: z.string(),
  /** Optimistic concurrency: send it back with `PUT form-definition/draft` and `publish`. */
  revision: z.number().int(),
  definition: definitionSchema,
  updatedAt: z.string(),
  updatedByName: z.string().nullable(),
  /** Problems that block publishing (a draft may be saved with them). */
  problems: z.array(definitionProblem),
  /** The draft differs from the latest published version (or nothing was published yet). */
  unpublishedChanges: z.boolean(),
  latestVersion: versionSummary.nullable(),
  /** For a sub-project: the parent's latest published definition (read-only here), else null. */
  parent: z
    .object({ projectName: z.string(), versionNo: z.number().int().nullable(), definition: definitionSchema })
    .nullable(),
});
export type DraftResponse = z.infer<typeof draftResponse>;

/** `PUT form-definition/draft` (`database.config`): 409 '数据库已被他人修改，请刷新后重试' on a stale revision. */
export const draftSaveRequest = z.object({
  revision: int4({ message: '请提供数据库版本' }),
  definition: definitionSchema,
});
export type DraftSaveRequest = z.infer<typeof draftSaveRequest>;
export const draftSaveResponse = z.object({
  revision: z.number().int(),
  problems: z.array(definitionProblem),
  unpublishedChanges: z.boolean(),
});

/** A breaking change with the number of records holding data it would orphan. */
export const breakingChange = z.object({ change: definitionChange, recordCount: z.number().int() });

/** `GET form-definition/publish-preview` (`database.config`): what publishing the draft would do. */
export const publishPreviewResponse = z.object({
  revision: z.number().int(),
  nextVersionNo: z.number().int(),
  changes: z.array(definitionChange),
  /** Breaking changes affecting entered data: publishing needs `confirmDataLoss`. */
  dataLoss: z.array(breakingChange),
  problems: z.array(definitionProblem),
});
export type PublishPreviewResponse = z.infer<typeof publishPreviewResponse>;

/**
 * `POST form-definition/publish` (`database.config`): freezes the draft as the next version. 400 with the problems as
 * issues when the engine refuses the draft; 409 '数据库已被他人修改，请刷新后重试' on a stale revision; 409
 * '本次发布会影响已录入的数据，请确认后再发布' when data would be orphaned and `confirmDataLoss` is not true; 400
 * '没有需要发布的修改' when the draft equals the latest version.
 */
export const publishRequest = z.object({
  revision: int4({ message: '请提供数据库版本' }),
  note: z.string().trim().max(500, '发布说明不能超过500个字符').optional(),
  confirmDataLoss: z.boolean().optional(),
});
export type PublishRequest = z.infer<typeof publishRequest>;
export const publishResponse = versionSummary;

/** `GET form-definition/versions` (`database.config`): newest first. */
export const versionListResponse = z.array(versionSummary);

/** `GET form-definition/version?id=` (`database.config`): one version with its diff against the one before. */
export const versionQuery = z.object({ id: z.guid('版本不存在') });
export const versionDetailResponse = versionSummary.extend({
  definition: definitionSchema,
  changes: z.array(definitionChange),
});
export type VersionDetailResponse = z.infer<typeof versionDetailResponse>;

/** `POST form-definition/discard-draft` (`database.config`): the draft becomes the latest version again. */
export const discardDraftRequest = z.object({ revision: int4({ message: '请提供数据库版本' }) });

/**
 * `GET form-definition/published` (any member of the current project): the definitions data is entered on. For a
 * sub-project, the parent's latest version and its own (either may be null before a first publish).
 */
export const publishedVersion = z.object({
  versionId: z.string(),
  versionNo: z.number().int(),
  projectId: z.string(),
  definition: definitionSchema,
});
export type PublishedVersion = z.infer<typeof publishedVersion>;
export const publishedResponse = z.object({
  own: publishedVersion.nullable(),
  parent: publishedVersion.nullable(),
});
export type PublishedResponse = z.infer<typeof publishedResponse>;

/**
 * `GET form-definition/published-version?id=` (any member of the current project): one published version of the
 * project or of its parent — the one a record was entered with, when a newer version was published since. 404
 * '版本不存在' for any other id.
 */
export const publishedVersionQuery = z.object({ id: z.guid('版本不存在') });
export const publishedVersionResponse = publishedVersion;

export const RECORD_CHECK_MODES = ['draft', 'submit'] as const;
/**
 * `POST form-record/check` (any member of the current project): the server engine's verdict on one form's data against a
 * version of this project (or of its parent) — the same function the web runs. `draft` skips required checks.
 */
export const recordCheckRequest = z.object({
  versionId: z.guid('版本不存在'),
  formKey: z.string().min(1, '请选择表单'),
  data: z.record(z.string(), z.unknown()),
  mode: z.enum(RECORD_CHECK_MODES).default('submit'),
});
export type RecordCheckRequest = z.infer<typeof recordCheckRequest>;
export const recordIssue = z.object({
  /** The data path: `weight`, or `meds.2.dose` for a group row's column. */
  path: z.string(),
  fieldKey: z.string(),
  message: z.string(),
  level: z.enum(['hard', 'soft']),
});
export type RecordIssue = z.infer<typeof recordIssue>;
export const recordCheckResponse = z.object({
  /** No hard issue. */
  valid: z.boolean(),
  issues: z.array(recordIssue),
  /** The data as the server would store it: calculated fields computed, hidden fields cleared. */
  data: z.record(z.string(), z.unknown()),
});
export type RecordCheckResponse = z.infer<typeof recordCheckResponse>;

/** One line of an import report: something that could not be carried over exactly. */
export const importNote = z.object({
  /** 1-based row of the source file (the header is row 1). */
  row: z.number().int().nullable(),
  formKey: z.string().nullable(),
  fieldKey: z.string().nullable(),
  /** The source column (`Branching Logic (Show field only if...)`). */
  column: z.string().nullable(),
  /** `untranslated` = dropped and listed; `changed` = carried over in another form; `error` = the file is refused. */
  severity: z.enum(['untranslated', 'changed', 'error']),
  message: z.string(),
  /** The source text concerned. */
  source: z.string().nullable(),
});
export type ImportNote = z.infer<typeof importNote>;

/**
 * `POST form-definition/import/excel` and `POST form-definition/import/redcap` (`database.config`, multipart `file`):
 * parse a data dictionary into a definition without saving it; the page shows the report and, on confirmation, saves
 * it as the draft (`PUT form-definition/draft`, replacing or appending). 400 with the notes when the file is unusable.
 */
export const importResponse = z.object({
  definition: definitionSchema,
  notes: z.array(importNote),
  formCount: z.number().int(),
  fieldCount: z.number().int(),
  /** Problems the engine finds in the imported definition. */
  problems: z.array(definitionProblem),
  /** REDCap import: data rows read, branching rules / calculations found and translated, encoding and separator. */
  summary: z
    .object({
      rows: z.number().int(),
      branching: z.number().int(),
      branchingTranslated: z.number().int(),
      calcs: z.number().int(),
      calcsTranslated: z.number().int(),
      /** The encoding the file was read in (converted to UTF-8): `UTF-8`, `UTF-16LE`, `UTF-16BE`, `GB18030`, `windows-1252`. */
      encoding: z.string(),
      /** The field separator detected from the header line: `,`, `;` or a tab. */
      delimiter: z.string(),
    })
    .optional(),
});
export type ImportResponse = z.infer<typeof importResponse>;

/**
 * `GET form-definition/export/excel?versionId=` and `GET form-definition/export/odm?versionId=` (`database.config`):
 * the data dictionary as .xlsx (one row per field) or the study definition as CDISC ODM 1.3.2 XML; without versionId,
 * the draft. A download (not the envelope).
 */
export const exportQuery = z.object({ versionId: z.guid('版本不存在').optional() });
