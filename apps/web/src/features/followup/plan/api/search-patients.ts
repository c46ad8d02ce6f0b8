import { useQuery } from '@tanstack/react-query';
import type { PatientPageResponse } from '@registry/shared/contracts/patient';
import { pagePatients } from '../../../../api/patients';

/** `POST patient-info/page` with a keyword: candidates to add to a plan by hand. */
export function searchPatients(keyword: string, current: number): Promise<PatientPageResponse> {
  const body = { current, size: 10, ...(keyword.trim() ? { keyword: keyword.trim() } : {}) };
  return pagePatients(body);
}

export function usePatientSearch(keyword: string, current: number, enabled: boolean) {
  return useQuery({
    queryKey: ['followup', 'patient-search', keyword.trim(), current],
    queryFn: () => searchPatients(keyword, current),
    enabled,
  });
}
