import type { FieldFilter, PatientPageRequest } from '@registry/shared/contracts/patient';
import {
  FIELD_FILTER_OPS,
  PATIENT_SORT_FIELDS,
  PATIENT_STATUSES,
  type FieldFilterOp,
  type PatientStatus,
} from '@registry/shared/contracts/patient-codes';
import { PATIENT_FOLLOWUP_STATUSES, type PatientFollowupStatus } from '@registry/shared/contracts/followup-codes';
import type { ListField } from './list-fields';

/**
 * The patient list's query, split in two by where it may live:
 * - `UrlQuery`: page, size, sort, center, status, enrolment dates and the filters on non-PHI CRF fields — kept in the
 *   address (`?page=2&status=enrolled&f.nyha.eq=3`), so back, refresh and a shared link keep them;
 * - `PrivateQuery`: keyword (it may be a name), hospital number, identity number and filters on PHI-flagged CRF fields
 *   — kept in memory only, never in the address (no PHI in URLs, quality.md).
 */
export type FieldFilterState = { fieldKey: string; op: FieldFilterOp; value?: string };

export type SortOrder = 'asc' | 'desc';

export type UrlQuery = {
  current: number;
  size?: number;
  sortField?: string;
  sortOrder?: SortOrder;
  centerId?: string;
  status?: PatientStatus;
  /** 随访状态, `?fu=` in the address. */
  followupStatus?: PatientFollowupStatus;
  enrolDateFrom?: string;
  enrolDateTo?: string;
  fieldFilters: FieldFilterState[];
};

export type PrivateQuery = {
  keyword?: string;
  hospitalNo?: string;
  idNumber?: string;
  fieldFilters: FieldFilterState[];
};

export const EMPTY_PRIVATE: PrivateQuery = { fieldFilters: [] };

export const PAGE_SIZES = [10, 20, 50, 100, 200] as const;
export const DEFAULT_PAGE_SIZE = 20;
/** The page call accepts at most this many CRF field filters. */
export const MAX_FIELD_FILTERS = 10;

const FIELD_SORT = /^field:[a-z][a-z0-9_]{0,63}$/;
const FIELD_KEY = /^[a-z][a-z0-9_]{0,63}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ID = /^[0-9A-Za-z-]{1,64}$/;

export function isSortField(value: string): boolean {
  return (PATIENT_SORT_FIELDS as readonly string[]).includes(value) || FIELD_SORT.test(value);
}

const positiveInt = (value: string | null): number | undefined => {
  if (!value || !/^\d{1,6}$/.test(value)) return undefined;
  const n = Number(value);
  return n >= 1 ? n : undefined;
};

/** The address's query as the list's state; anything malformed is dropped (an old or edited link still opens). */
export function parseUrlQuery(params: URLSearchParams): UrlQuery {
  const query: UrlQuery = { current: positiveInt(params.get('page')) ?? 1, fieldFilters: [] };
  const size = positiveInt(params.get('size'));
  if (size && (PAGE_SIZES as readonly number[]).includes(size)) query.size = size;
  const sort = params.get('sort');
  if (sort && isSortField(sort)) {
    query.sortField = sort;
    query.sortOrder = params.get('order') === 'asc' ? 'asc' : 'desc';
  }
  const center = params.get('center');
  if (center && ID.test(center)) query.centerId = center;
  const status = params.get('status');
  if (status && (PATIENT_STATUSES as readonly string[]).includes(status)) query.status = status as PatientStatus;
  const followup = params.get('fu');
  if (followup && (PATIENT_FOLLOWUP_STATUSES as readonly string[]).includes(followup))
    query.followupStatus = followup as PatientFollowupStatus;
  const from = params.get('from');
  if (from && ISO_DATE.test(from)) query.enrolDateFrom = from;
  const to = params.get('to');
  if (to && ISO_DATE.test(to)) query.enrolDateTo = to;
  for (const [name, value] of params) {
    const match = /^f\.([a-z][a-z0-9_]{0,63})\.([a-zA-Z]+)$/.exec(name);
    if (!match || query.fieldFilters.length >= MAX_FIELD_FILTERS) continue;
    const [, fieldKey = '', op = ''] = match;
    if (!(FIELD_FILTER_OPS as readonly string[]).includes(op) || value.length > 200) continue;
    const filterOp = op as FieldFilterOp;
    if (filterOp === 'empty' || filterOp === 'notEmpty') query.fieldFilters.push({ fieldKey, op: filterOp });
    else if (value !== '') query.fieldFilters.push({ fieldKey, op: filterOp, value });
  }
  return query;
}

/** The list's state as the address's query (defaults left out, so a plain list has a plain address). */
export function toUrlSearch(query: UrlQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (query.current > 1) params.set('page', String(query.current));
  if (query.size) params.set('size', String(query.size));
  if (query.sortField && isSortField(query.sortField)) {
    params.set('sort', query.sortField);
    params.set('order', query.sortOrder ?? 'desc');
  }
  if (query.centerId) params.set('center', query.centerId);
  if (query.status) params.set('status', query.status);
  if (query.followupStatus) params.set('fu', query.followupStatus);
  if (query.enrolDateFrom) params.set('from', query.enrolDateFrom);
  if (query.enrolDateTo) params.set('to', query.enrolDateTo);
  for (const filter of query.fieldFilters) {
    if (!FIELD_KEY.test(filter.fieldKey)) continue;
    params.append(`f.${filter.fieldKey}.${filter.op}`, filter.value ?? '1');
  }
  return params;
}

/** A field filter as the page call takes it: numbers of number fields as numbers; unknown fields dropped. */
function toFieldFilter(filter: FieldFilterState, fields: ReadonlyMap<string, ListField>): FieldFilter | null {
  const field = fields.get(filter.fieldKey);
  if (!field) return null;
  if (filter.op === 'empty' || filter.op === 'notEmpty') return { fieldKey: filter.fieldKey, op: filter.op };
  if (filter.value === undefined || filter.value === '') return null;
  if (field.filter === 'number') {
    const n = Number(filter.value);
    return Number.isFinite(n) ? { fieldKey: filter.fieldKey, op: filter.op, value: n } : null;
  }
  return { fieldKey: filter.fieldKey, op: filter.op, value: filter.value };
}

/** The body of `POST patient-info/page` from both halves of the query. */
export function toPageRequest(
  url: UrlQuery,
  hidden: PrivateQuery,
  fields: readonly ListField[],
  defaultSize: number,
  pii: boolean,
): PatientPageRequest {
  // Without `patient.pii` a PHI field (and the hospital number, which is shown masked) can be neither filtered nor
  // sorted on (the server answers 403): a prefix or an order would reveal the masked value.
  const byKey = new Map(fields.filter((f) => pii || !f.phi).map((f) => [f.key, f]));
  const body: PatientPageRequest = { current: url.current, size: url.size ?? defaultSize };
  if (hidden.keyword) body.keyword = hidden.keyword;
  if (hidden.hospitalNo && pii) body.hospitalNo = hidden.hospitalNo;
  if (hidden.idNumber && pii) body.idNumber = hidden.idNumber;
  if (url.centerId) body.centerId = url.centerId;
  if (url.status) body.status = url.status;
  if (url.followupStatus) body.followupStatus = url.followupStatus;
  if (url.enrolDateFrom) body.enrolDateFrom = url.enrolDateFrom;
  if (url.enrolDateTo) body.enrolDateTo = url.enrolDateTo;
  // A sort on a CRF column that is no longer list-flagged would be refused: fall back to the default order.
  const sortable = url.sortField?.startsWith('field:')
    ? byKey.has(url.sortField.slice(6))
    : pii || url.sortField !== 'hospitalNo';
  if (url.sortField && sortable) {
    body.sortField = url.sortField;
    body.sortOrder = url.sortOrder ?? 'desc';
  }
  const fieldFilters = [...url.fieldFilters, ...hidden.fieldFilters]
    .map((f) => toFieldFilter(f, byKey))
    .filter((f): f is FieldFilter => f !== null)
    .slice(0, MAX_FIELD_FILTERS);
  if (fieldFilters.length > 0) body.fieldFilters = fieldFilters;
  return body;
}

/** True when any filter narrows the list (for the 重置 button and the empty-state text). */
export function isFiltered(url: UrlQuery, hidden: PrivateQuery): boolean {
  return Boolean(
    url.centerId ||
    url.status ||
    url.followupStatus ||
    url.enrolDateFrom ||
    url.enrolDateTo ||
    url.fieldFilters.length > 0 ||
    hidden.keyword ||
    hidden.hospitalNo ||
    hidden.idNumber ||
    hidden.fieldFilters.length > 0,
  );
}
