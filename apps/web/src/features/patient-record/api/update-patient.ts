import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PatientUpdateRequest, PatientVO } from '@registry/shared/contracts/patient';
import { request } from '../../../lib/request';
import { patientKeys } from './keys';

/** `PUT patient-info`: the fields sent change; 409 when someone saved since `rowVersion`. */
export function updatePatient(body: PatientUpdateRequest): Promise<PatientVO> {
  return request<PatientVO>({ method: 'put', url: '/patient-info', data: body });
}

export function useUpdatePatient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePatient,
    onSuccess: (patient) => {
      queryClient.setQueryData(patientKeys.detail(patient.id), patient);
      return queryClient.invalidateQueries({ queryKey: ['patient-info'] });
    },
  });
}
