import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PatientVO } from '@registry/shared/contracts/patient';
import { request } from '../../../lib/request';
import { patientKeys } from './keys';

/** `GET patient-info/{id}`: the patient's demographics (masked without `patient.pii`). */
export function getPatient(id: string): Promise<PatientVO> {
  return request<PatientVO>({ method: 'get', url: `/patient-info/${encodeURIComponent(id)}` });
}

export function patientQuery(id: string) {
  return queryOptions({ queryKey: patientKeys.detail(id), queryFn: () => getPatient(id), enabled: Boolean(id) });
}

export function usePatient(id: string) {
  return useQuery(patientQuery(id));
}
