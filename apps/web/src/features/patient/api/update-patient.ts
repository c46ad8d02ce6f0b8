import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PatientUpdateRequest, PatientVO } from '@registry/shared/contracts/patient';
import { request } from '../../../lib/request';
import { patientKeys } from './page-patients';

/**
 * `PUT patient-info`: the fields sent change (null clears one); 409 '患者信息已被他人修改，请刷新后重试' when
 * `rowVersion` is stale, 409 with an `idNumber` / `hospitalNo` issue on a duplicate.
 */
export function updatePatient(body: PatientUpdateRequest): Promise<PatientVO> {
  return request<PatientVO>({ method: 'put', url: '/patient-info', data: body });
}

export function useUpdatePatient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePatient,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: patientKeys.all }),
  });
}
