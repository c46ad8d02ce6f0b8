import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RecordDetailQuery } from '@registry/shared/contracts/form-record';
import { getFormRecord } from '../../../api/form-records';
import { recordKeys } from './keys';

/**
 * The editor's copy of one record (`getFormRecord`, `GET form-record/detail`). Never cached between visits: the editor
 * starts from what the server holds now.
 */
export function recordQuery(query: RecordDetailQuery, enabled = true) {
  return queryOptions({
    queryKey: recordKeys.detail(query),
    queryFn: () => getFormRecord(query),
    enabled: enabled && Boolean(query.patientId && query.formKey),
    staleTime: 0,
    gcTime: 0,
  });
}

export function useRecord(query: RecordDetailQuery, enabled = true) {
  return useQuery(recordQuery(query, enabled));
}
