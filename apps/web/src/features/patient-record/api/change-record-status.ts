import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FormRecordVO, RecordStatusRequest } from '@registry/shared/contracts/form-record';
import { request } from '../../../lib/request';
import { recordKeys } from './keys';

/** `POST form-record/status`: verify (`patient.sdv`), lock and unlock (`patient.lock`, unlock with a reason). */
export function changeRecordStatus(body: RecordStatusRequest): Promise<FormRecordVO> {
  return request<FormRecordVO>({ method: 'post', url: '/form-record/status', data: body });
}

export function useChangeRecordStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeRecordStatus,
    onSuccess: (record) => queryClient.invalidateQueries({ queryKey: recordKeys.patient(record.patientId) }),
  });
}
