import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TaskListItem, TaskPageRequest } from '@registry/shared/contracts/followup';
import { request } from '../../../lib/request';
import type { Page } from '../../../lib/page';
import { taskKeys } from './keys';

/** `POST followup/task/page`: a page of the worklist (one state, filtered), paged on the server. */
export function pageTasks(body: TaskPageRequest): Promise<Page<TaskListItem>> {
  return request<Page<TaskListItem>>({ method: 'post', url: '/followup/task/page', data: body });
}

export function useTaskPage(body: TaskPageRequest) {
  return useQuery({
    queryKey: taskKeys.page(body),
    queryFn: () => pageTasks(body),
    // The rows stay while the next page or tab loads: the table does not jump.
    placeholderData: keepPreviousData,
  });
}
