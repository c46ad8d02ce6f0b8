import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PatientCreateRequest, PatientVO } from '@registry/shared/contracts/patient';
import { request } from '../../../lib/request';
import { patientKeys } from './page-patients';

/** `POST patient-info`: a new patient of the current project (400 with field issues, 409 on a duplicate). */
export function createPatient(body: PatientCreateRequest): Promise<PatientVO> {
  return request<PatientVO>({ method: 'post', url: '/patient-info', data: body });
}

export function useCreatePatient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPatient,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: patientKeys.all }),
  });
}
