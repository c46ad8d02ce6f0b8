import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { PatientPageRequest, PatientPageResponse } from '@registry/shared/contracts/patient';
import { request } from '../../../lib/request';

export const patientKeys = {
  all: ['patient-info'] as const,
  page: (body: PatientPageRequest) => ['patient-info', 'page', body] as const,
};

/** `POST patient-info/page`: a page of the current project's patients, filtered and sorted on the server. */
export function pagePatients(body: PatientPageRequest): Promise<PatientPageResponse> {
  return request<PatientPageResponse>({ method: 'post', url: '/patient-info/page', data: body });
}

export function patientPageQuery(body: PatientPageRequest, enabled = true) {
  return {
    queryKey: patientKeys.page(body),
    queryFn: () => pagePatients(body),
    enabled,
    // The rows stay while the next page loads: the table does not jump.
    placeholderData: keepPreviousData,
  };
}

export function usePatientPage(body: PatientPageRequest, enabled = true) {
  return useQuery(patientPageQuery(body, enabled));
}
