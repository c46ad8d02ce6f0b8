import { request } from '../../../lib/request';

/** `POST followup/task/lost` (`followup.edit`): this task, or (`wholePatient`) the patient, lost to follow-up. */
export function markLost(body: { taskId: string; reason: string; wholePatient: boolean }): Promise<unknown> {
  return request<unknown>({ method: 'post', url: '/followup/task/lost', data: body });
}
