import { request } from '../../../lib/request';

/** `POST followup/task/complete` (`followup.edit`): closes the task as done; 409 with what is still missing. */
export function completeTask(body: { taskId: string; rowVersion: number }): Promise<unknown> {
  return request<unknown>({ method: 'post', url: '/followup/task/complete', data: body });
}
