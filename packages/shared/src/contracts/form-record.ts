import { z } from 'zod';
import { page, pageRequest } from './envelope';
import { int4, queryInt4 } from './fields';
import { recordIssue } from './form-definition';
import {
  CHANGE_REASON,
  RECORD_STATUSES,
  VALUE_SOURCES,
  QUERY_STATUS_CODES,
  QUERY_MINE_FILTERS,
} from './form-record-codes';

// the codes live without zod (the web's list and record pages import them from there); the contract re-exports them
export * from './form-record-codes';

/**
 * CRF records of a patient (`/patient/edit`, `/patient/file`, `/patient/source`). Base `form-record`.
 *
 * A record is one form of one patient (repeating forms: one record per instance, 1..n, never renumbered). Its data is
 * checked by the shared form engine (`forms/record.ts`) on the server exactly as in the browser. Every changed data
 * point is kept as a version (value, who, when, reason, source) in `record_value_versions`; every save writes an
 * audit event with old and new values in the same transaction.
 *
 * Statuses: draft → submitted (all hard checks incl. required pass) → verified (a monitor, `patient.sdv`) → locked
 * (`patient.lock`). Changing a submitted or verified record needs a reason; changing a verified record returns it to
 * submitted. A locked record refuses every change (409) until unlocked with a reason.
 *
 * Scope: the patient must be visible to the caller (tenant, project, sub-project cohort, center rule); anything else
 * answers 404 '患者不存在' / '表单记录不存在'. Without `patient.pii`, values of fields flagged `phi` are returned as
 * null and listed in `maskedPaths`. Responses carry `Cache-Control: no-store`.
 */

/** Where a value came from: import `{ batchId, fileName, row }`, recognition `{ documentId, page, box }`. */
export const valueSourceRef = z.record(z.string(), z.unknown()).nullable();

const reasonField = z.string().trim().max(CHANGE_REASON.maxLength, CHANGE_REASON.tooLong);
const uuid = (message: string) => z.guid(message);
const dataPath = z.string().min(1, '请选择数据项').max(200, '数据项不正确');

/** The state of one data point (leaf path) of a record, for the marks of the edit page. */
export const dataPointState = z.object({
  path: z.string(),
  /** How many versions it has (1 = never changed since first entered). */
  versions: z.number().int(),
  lastAt: z.string(),
  lastByName: z.string().nullable(),
  lastSource: z.enum(VALUE_SOURCES),
  /** `verified`: its latest version carries an SDV mark; `stale`: an earlier version was verified, then it changed. */
  sdv: z.enum(['verified', 'stale']).nullable(),
  openQueries: z.number().int(),
});
export type DataPointState = z.infer<typeof dataPointState>;

export const dataQueryVO = z.object({
  id: z.string(),
  recordId: z.string(),
  formKey: z.string(),
  instance: z.number().int(),
  path: z.string(),
  origin: z.enum(['auto', 'manual']),
  message: z.string(),
  status: z.enum(QUERY_STATUS_CODES),
  raisedByName: z.string().nullable(),
  raisedAt: z.string(),
  answer: z.string().nullable(),
  answeredByName: z.string().nullable(),
  answeredAt: z.string().nullable(),
  closedByName: z.string().nullable(),
  closedAt: z.string().nullable(),
  closeNote: z.string().nullable(),
});
export type DataQueryVO = z.infer<typeof dataQueryVO>;

export const formRecordVO = z.object({
  /** null: nothing saved yet for this form and instance (a blank record to start from). */
  id: z.string().nullable(),
  patientId: z.string(),
  formKey: z.string(),
  instance: z.number().int(),
  /** The published version the data was entered with (a new record: the current published version). */
  versionId: z.string(),
  versionNo: z.number().int(),
  status: z.enum(RECORD_STATUSES),
  /** 0 for a record not saved yet; a save sends the version it started from. */
  rowVersion: z.number().int(),
  data: z.record(z.string(), z.unknown()),
  /** Paths whose values are withheld (PHI fields without `patient.pii`). */
  maskedPaths: z.array(z.string()),
  /** Soft issues of the stored data (hard ones cannot be stored). */
  issues: z.array(recordIssue),
  points: z.array(dataPointState),
  queries: z.array(dataQueryVO),
  createdAt: z.string().nullable(),
  updatedAt: z.string().nullable(),
  updatedByName: z.string().nullable(),
  submittedAt: z.string().nullable(),
  submittedByName: z.string().nullable(),
  verifiedAt: z.string().nullable(),
  verifiedByName: z.string().nullable(),
  lockedAt: z.string().nullable(),
  lockedByName: z.string().nullable(),
});
export type FormRecordVO = z.infer<typeof formRecordVO>;

/** One record in the patient's overview: what the form tree shows (status and completeness). */
export const recordSummary = z.object({
  id: z.string(),
  formKey: z.string(),
  instance: z.number().int(),
  versionId: z.string(),
  status: z.enum(RECORD_STATUSES),
  rowVersion: z.number().int(),
  /** Data fields (not layout, not calc) that hold a value and are shown, of those shown. */
  filled: z.number().int(),
  total: z.number().int(),
  /** Required shown fields still blank. */
  missingRequired: z.number().int(),
  softIssues: z.number().int(),
  openQueries: z.number().int(),
  /** When the record was first saved, and its status steps (the patient file's timeline). */
  createdAt: z.string(),
  submittedAt: z.string().nullable(),
  verifiedAt: z.string().nullable(),
  lockedAt: z.string().nullable(),
  updatedAt: z.string(),
  updatedByName: z.string().nullable(),
});
export type RecordSummary = z.infer<typeof recordSummary>;

/** `GET form-record/patient/{patientId}` (`patient.list`): every record of the patient (removed instances excluded). */
export const patientRecordsParams = z.object({ patientId: z.string().max(64, '患者不存在') });
export const patientRecordsResponse = z.object({ records: z.array(recordSummary) });
export type PatientRecordsResponse = z.infer<typeof patientRecordsResponse>;

/**
 * `GET form-record/detail?patientId=&formKey=&instance=` (`patient.list`): one record, or a blank one (id null,
 * rowVersion 0, the current published version) when nothing was saved yet. 404 '表单不存在' for a form key that no
 * published version of the project (or its parent) has.
 */
export const recordDetailQuery = z.object({
  patientId: uuid('患者不存在'),
  formKey: z.string().min(1, '请选择表单').max(64, '表单不存在'),
  instance: queryInt4({ min: 1, message: '实例序号不正确' }).default(1),
});
export type RecordDetailQuery = z.input<typeof recordDetailQuery>;

export const RECORD_SAVE_ACTIONS = ['draft', 'submit'] as const;
/**
 * `POST form-record/save` (`patient.edit`): save a form's data.
 * - `rowVersion` 0 creates the record (409 when it exists already); otherwise the version the edit started from:
 *   409 '该表单已被他人修改，请刷新后查看变更' when someone saved in between — nothing is overwritten.
 * - `instance` omitted with rowVersion 0 on a repeating form: the next instance number.
 * - `draft` stores whatever passes the hard checks other than required; `submit` runs every check and moves a draft to
 *   submitted. Hard issues answer 400 with `issues` (`path` = the data path); soft issues are stored and open a query
 *   each (closed by themselves once the value no longer triggers them).
 * - A submitted or verified record needs `reason` ('请填写修改原因', path `reason`) for any change of its data.
 * - Calculated fields are computed and hidden fields cleared by the server; values it changes count as source `calc`.
 */
export const recordSaveRequest = z.object({
  patientId: uuid('患者不存在'),
  formKey: z.string().min(1, '请选择表单').max(64, '表单不存在'),
  instance: int4({ min: 1, message: '实例序号不正确' }).optional(),
  rowVersion: int4({ message: '请提供数据版本' }),
  data: z.record(z.string(), z.unknown()),
  action: z.enum(RECORD_SAVE_ACTIONS, '保存方式不正确').default('draft'),
  reason: reasonField.optional(),
});
export type RecordSaveRequest = z.input<typeof recordSaveRequest>;
export const recordSaveResponse = formRecordVO;

export const RECORD_STATUS_ACTIONS = ['verify', 'lock', 'unlock'] as const;
export type RecordStatusAction = (typeof RECORD_STATUS_ACTIONS)[number];
/**
 * `POST form-record/status`: `verify` submitted → verified (`patient.sdv`); `lock` submitted or verified → locked and
 * `unlock` locked → what it was (`patient.lock`, reason required). 409 for a transition the status does not allow
 * or a stale rowVersion.
 */
export const recordStatusRequest = z.object({
  id: uuid('表单记录不存在'),
  rowVersion: int4({ min: 1, message: '请提供数据版本' }),
  action: z.enum(RECORD_STATUS_ACTIONS, '操作不正确'),
  reason: reasonField.optional(),
});
export type RecordStatusRequest = z.input<typeof recordStatusRequest>;
/** The record after the transition (as `GET form-record/detail` answers it). */
export const recordStatusResponse = formRecordVO;

/**
 * `DELETE form-record?id=` with the body `{ reason }` (`patient.edit`): remove an instance of a repeating form (not
 * locked). The reason never travels in the URL: `?reason=` is refused.
 */
export const recordDeleteQuery = z.object({
  id: uuid('表单记录不存在'),
  reason: z.never('删除原因请放在请求内容中，不要放在网址中').optional(),
});
export const recordDeleteBody = z.object({
  reason: z.string().trim().max(500, '删除原因不能超过500个字符').optional(),
});
export const recordDeleteResponse = z.object({ deleted: z.number().int() });

/** One version of a data point (`/patient/source`, the history popover of the edit page). */
export const valueVersionVO = z.object({
  id: z.number().int(),
  path: z.string(),
  /** null: cleared. Withheld (null, `masked` true) for PHI fields without `patient.pii`. */
  value: z.unknown(),
  masked: z.boolean(),
  reason: z.string().nullable(),
  source: z.enum(VALUE_SOURCES),
  sourceRef: valueSourceRef,
  recordRowVersion: z.number().int(),
  actorName: z.string().nullable(),
  at: z.string(),
  /** The SDV mark on this version. */
  sdv: z.object({ verifiedByName: z.string().nullable(), verifiedAt: z.string() }).nullable(),
});
export type ValueVersionVO = z.infer<typeof valueVersionVO>;

/**
 * `GET form-record/history?recordId=&path=&sinceRowVersion=` (`patient.list`): versions of one data point (`path`),
 * or of every data point of the record; `sinceRowVersion` keeps the versions saved after that record version (what
 * changed since a stale edit began). Newest first.
 */
export const recordHistoryQuery = z.object({
  recordId: uuid('表单记录不存在'),
  path: dataPath.optional(),
  sinceRowVersion: queryInt4({ message: '数据版本不正确' }).optional(),
});
export const recordHistoryResponse = z.object({
  recordId: z.string(),
  formKey: z.string(),
  instance: z.number().int(),
  patientId: z.string(),
  versions: z.array(valueVersionVO),
  queries: z.array(dataQueryVO),
});
export type RecordHistoryResponse = z.infer<typeof recordHistoryResponse>;

/**
 * `POST form-record/sdv` (`patient.sdv`): mark the latest versions of `paths` verified against the source. A path
 * with no value version answers 400 naming it; a path already verified is left as it is.
 */
export const sdvRequest = z.object({
  recordId: uuid('表单记录不存在'),
  paths: z.array(dataPath).min(1, '请选择要核查的数据项').max(500, '一次最多核查500个数据项'),
});
export const sdvResponse = z.object({ verified: z.number().int() });

/** `POST form-record/query` (`patient.query`): raise a query on a data point. */
export const queryCreateRequest = z.object({
  recordId: uuid('表单记录不存在'),
  path: dataPath,
  message: z.string().trim().min(1, '请填写质疑内容').max(1000, '质疑内容不能超过1000个字符'),
});
/** `POST form-record/query/answer` (`patient.edit`): answer an open query. */
export const queryAnswerRequest = z.object({
  id: uuid('质疑不存在'),
  answer: z.string().trim().min(1, '请填写回复内容').max(1000, '回复内容不能超过1000个字符'),
});
/** `POST form-record/query/close` (`patient.query`): close a query (an auto query closes itself). */
export const queryCloseRequest = z.object({
  id: uuid('质疑不存在'),
  note: z.string().trim().max(1000, '关闭说明不能超过1000个字符').optional(),
});
export const queryResponse = dataQueryVO;

/**
 * `POST form-record/query/page` (`patient.list`): the open-queries list (`/patient/query`, 质疑管理) of the
 * current project, newest first. Scope from the session only: tenant, project (a sub-project: its cohort) and the
 * member's center (a center-scoped member sees only its center's queries). `status` absent = not closed (open and
 * answered). `mine`: `raised` = raised by the caller, `assigned` = on data the caller entered (the query's assignee).
 * `minDaysOpen`: raised at least that many days ago. Without `patient.pii` the patient name is masked
 * (`phi-mask.ts`). A center, form or status that matches nothing answers an empty page.
 */
export const queryPageRequest = pageRequest.extend({
  status: z.enum(QUERY_STATUS_CODES, '质疑状态不正确').optional(),
  centerId: z.guid('请选择中心').optional(),
  formKey: z
    .string()
    .trim()
    .max(64, '表单不正确')
    .regex(/^[A-Za-z][A-Za-z0-9_]*$/, '表单不正确')
    .optional(),
  mine: z.enum(QUERY_MINE_FILTERS, '筛选条件不正确').optional(),
  minDaysOpen: int4({ min: 0, max: 3650, message: '已开放天数应为0到3650之间的整数' }).optional(),
});
export type QueryPageRequest = z.input<typeof queryPageRequest>;

export const queryListItem = z.object({
  id: z.string(),
  recordId: z.string(),
  patientId: z.string(),
  patientNo: z.string(),
  /** Masked without `patient.pii`. */
  patientName: z.string().nullable(),
  centerId: z.string().nullable(),
  centerName: z.string().nullable(),
  formKey: z.string(),
  /** The form's title in the record's version (the key when the version lacks it). */
  formTitle: z.string(),
  instance: z.number().int(),
  path: z.string(),
  /** The data point's label (`体重`, `用药 第2行「剂量」`). */
  fieldLabel: z.string(),
  origin: z.enum(['auto', 'manual']),
  message: z.string(),
  status: z.enum(QUERY_STATUS_CODES),
  raisedByName: z.string().nullable(),
  raisedAt: z.string(),
  assignedToName: z.string().nullable(),
  answer: z.string().nullable(),
  answeredByName: z.string().nullable(),
  answeredAt: z.string().nullable(),
  closedAt: z.string().nullable(),
  /** Whole days since it was raised (until it closed, for a closed one). */
  daysOpen: z.number().int(),
});
export type QueryListItem = z.infer<typeof queryListItem>;
export const queryPageResponse = page(queryListItem);
export type QueryPageResponse = z.infer<typeof queryPageResponse>;
