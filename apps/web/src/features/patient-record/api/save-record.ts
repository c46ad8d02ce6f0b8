import type { FormRecordVO, RecordSaveRequest } from '@registry/shared/contracts/form-record';
import { request } from '../../../lib/request';

/**
 * `POST form-record/save`: `rowVersion` is the version the edit started from (0 creates); 409 when someone saved
 * in between (nothing is overwritten); 400 with `issues` for hard issues.
 */
export function saveRecord(body: RecordSaveRequest): Promise<FormRecordVO> {
  return request<FormRecordVO>({ method: 'post', url: '/form-record/save', data: body });
}
