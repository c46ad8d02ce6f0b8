import { queryOptions, useQuery } from '@tanstack/react-query';
import type { FormRecordVO, RecordDetailQuery } from '@registry/shared/contracts/form-record';
import { getFormRecord } from '../../../components/crf/record-detail';
import { recordKeys } from './keys';

/** `GET form-record/detail?patientId=&formKey=&instance=`: one record, or a blank one (id null, rowVersion 0). */
export function getRecord(query: RecordDetailQuery): Promise<FormRecordVO> {
  return getFormRecord(query);
}

/** Never cached between visits: the editor starts from what the server holds now. */
export function recordQuery(query: RecordDetailQuery, enabled = true) {
  return queryOptions({
    queryKey: recordKeys.detail(query),
    queryFn: () => getRecord(query),
    enabled: enabled && Boolean(query.patientId && query.formKey),
    staleTime: 0,
    gcTime: 0,
  });
}

export function useRecord(query: RecordDetailQuery, enabled = true) {
  return useQuery(recordQuery(query, enabled));
}
