import { request } from '../../../lib/request';

/** `POST followup/task/reopen` (`followup.edit`): a done or lost task back to open, with a reason. */
export function reopenTask(body: { taskId: string; reason: string }): Promise<unknown> {
  return request<unknown>({ method: 'post', url: '/followup/task/reopen', data: body });
}
