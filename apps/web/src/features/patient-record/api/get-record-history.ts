import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RecordHistoryResponse } from '@registry/shared/contracts/form-record';
import { request } from '../../../lib/request';
import { recordKeys } from './keys';

export type RecordHistoryParams = { recordId: string; path?: string; sinceRowVersion?: number };

/**
 * `GET form-record/history?recordId=&path=&sinceRowVersion=`: versions of one data point (or of the whole record),
 * newest first; `sinceRowVersion` keeps what was saved after that record version.
 */
export function getRecordHistory(params: RecordHistoryParams): Promise<RecordHistoryResponse> {
  return request<RecordHistoryResponse>({ method: 'get', url: '/form-record/history', params });
}

export function recordHistoryQuery(params: RecordHistoryParams, enabled = true) {
  return queryOptions({
    queryKey: recordKeys.history(params.recordId, params.path, params.sinceRowVersion),
    queryFn: () => getRecordHistory(params),
    enabled: enabled && Boolean(params.recordId),
    staleTime: 0,
  });
}

export function useRecordHistory(params: RecordHistoryParams, enabled = true) {
  return useQuery(recordHistoryQuery(params, enabled));
}
