import type { FormRecordVO } from './form-record';

/**
 * The codes and labels of the form-record contract (`form-record.ts`) and its blank record, without the zod schemas:
 * the web imports them from here, so a page that shows a record's status does not load zod. `form-record.ts`
 * re-exports them.
 */
/**
 * The reason of a change to a submitted record: its label, limit and messages (the rule: forms/change-reason, which
 * re-exports it; kept here, with the codes the web loads anyway, so the contracts read it without another chunk).
 */
export const CHANGE_REASON = {
  label: '修改原因',
  maxLength: 500,
  required: '请填写修改原因',
  tooLong: '修改原因不能超过500个字符',
} as const;

export const RECORD_STATUSES = ['draft', 'submitted', 'verified', 'locked'] as const;
export type RecordStatus = (typeof RECORD_STATUSES)[number];
export const RECORD_STATUS_LABELS: Readonly<Record<RecordStatus, string>> = {
  draft: '草稿',
  submitted: '已提交',
  verified: '已核查',
  locked: '已锁定',
};

export const VALUE_SOURCES = ['manual', 'import', 'recognition', 'api', 'calc'] as const;
export type ValueSource = (typeof VALUE_SOURCES)[number];
export const VALUE_SOURCE_LABELS: Readonly<Record<ValueSource, string>> = {
  manual: '手工录入',
  import: 'Excel导入',
  recognition: 'AI识别',
  api: '接口',
  calc: '自动计算',
};

export const QUERY_STATUS_CODES = ['open', 'answered', 'closed'] as const;
export type QueryStatus = (typeof QUERY_STATUS_CODES)[number];
export const QUERY_STATUS_LABELS: Readonly<Record<QueryStatus, string>> = {
  open: '待回复',
  answered: '已回复',
  closed: '已关闭',
};
/** The open-queries list's `mine` filter: `raised` by the caller, or `assigned` to them (data they entered). */
export const QUERY_MINE_FILTERS = ['raised', 'assigned'] as const;
export type QueryMineFilter = (typeof QUERY_MINE_FILTERS)[number];

/** A record not saved yet (id null, row version 0): what the server answers before the first save, and what the edit
 * page starts a new instance of a repeating form from (instance 0: the server numbers it on the first save). */
export function blankRecord(head: {
  patientId: string;
  formKey: string;
  instance: number;
  versionId: string;
  versionNo: number;
}): FormRecordVO {
  return {
    id: null,
    ...head,
    status: 'draft',
    rowVersion: 0,
    data: {},
    maskedPaths: [],
    issues: [],
    points: [],
    queries: [],
    createdAt: null,
    updatedAt: null,
    updatedByName: null,
    submittedAt: null,
    submittedByName: null,
    verifiedAt: null,
    verifiedByName: null,
    lockedAt: null,
    lockedByName: null,
  };
}
