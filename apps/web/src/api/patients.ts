import type { PatientPageRequest, PatientPageResponse } from '@registry/shared/contracts/patient';
import { request } from '../lib/request';

/**
 * `POST patient-info/page`: a page of the current project's patients, filtered and sorted on the server (the patient
 * list; a follow-up plan's 添加患者 search).
 */
export function pagePatients(body: PatientPageRequest): Promise<PatientPageResponse> {
  return request<PatientPageResponse>({ method: 'post', url: '/patient-info/page', data: body });
}
