import type { FormRecordVO, RecordDetailQuery } from '@registry/shared/contracts/form-record';
import { request } from '../../lib/request';

/**
 * `GET form-record/detail?patientId=&formKey=&instance=` (`patient.list`): one record of a patient, or a blank one (id
 * null, rowVersion 0). Shared by the features that render a patient's forms (the patient editor, the follow-up task).
 */
export function getFormRecord(query: RecordDetailQuery): Promise<FormRecordVO> {
  return request<FormRecordVO>({ method: 'get', url: '/form-record/detail', params: query });
}

/** The query key of one record: the same in every feature, so they share (and invalidate) one cache entry. */
export const formRecordDetailKey = (query: RecordDetailQuery) =>
  ['form-record', 'detail', query.patientId, query.formKey, query.instance ?? 1] as const;
