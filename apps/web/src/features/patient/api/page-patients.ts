import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { PatientPageRequest } from '@registry/shared/contracts/patient';
import { pagePatients } from '../../../api/patients';

export const patientKeys = {
  all: ['patient-info'] as const,
  page: (body: PatientPageRequest) => ['patient-info', 'page', body] as const,
};

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
