import type { TaskFormSaveRequest, TaskFormVO } from '@registry/shared/contracts/followup';
import { request } from '../../../lib/request';

/**
 * `POST followup/task/form/save` (`followup.edit`): a draft or a submit of one of the visit's forms (record-writer rules:
 * 400 with `issues` at field paths, 409 when someone saved in between, a reason once submitted). Answers the form with
 * its record as saved.
 */
export function saveTaskForm(body: TaskFormSaveRequest): Promise<TaskFormVO> {
  return request<TaskFormVO>({ method: 'post', url: '/followup/task/form/save', data: body });
}
