import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PatientRecordsResponse } from '@registry/shared/contracts/form-record';
import { request } from '../../../lib/request';
import { recordKeys } from './keys';

/** `GET form-record/patient/{patientId}`: every record of the patient with status and completeness. */
export function listPatientRecords(patientId: string): Promise<PatientRecordsResponse> {
  return request<PatientRecordsResponse>({
    method: 'get',
    url: `/form-record/patient/${encodeURIComponent(patientId)}`,
  });
}

export function patientRecordsQuery(patientId: string) {
  return queryOptions({
    queryKey: recordKeys.patient(patientId),
    queryFn: () => listPatientRecords(patientId),
    enabled: Boolean(patientId),
  });
}

export function usePatientRecords(patientId: string) {
  return useQuery(patientRecordsQuery(patientId));
}
