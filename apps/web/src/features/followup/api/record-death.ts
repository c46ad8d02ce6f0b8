import { request } from '../../../lib/request';

/** `POST followup/patient/death` (`followup.edit`): the patient died; their open tasks are cancelled. */
export function recordDeath(body: { patientId: string; deathDate: string; cause: string }): Promise<unknown> {
  return request<unknown>({ method: 'post', url: '/followup/patient/death', data: body });
}
