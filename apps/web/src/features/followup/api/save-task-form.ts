import type { TaskFormSaveRequest } from '@registry/shared/contracts/followup';
import { request } from '../../../lib/request';

/**
 * `POST followup/task/form/save` (`followup.edit`): a draft or a submit of one of the visit's forms (record-writer rules:
 * 400 with `issues` at field paths, 409 when someone saved in between, a reason once submitted).
 */
export function saveTaskForm(body: TaskFormSaveRequest): Promise<unknown> {
  return request<unknown>({ method: 'post', url: '/followup/task/form/save', data: body });
}
