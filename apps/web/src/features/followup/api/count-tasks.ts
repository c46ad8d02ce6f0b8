import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TaskCounts, TaskFilter } from '@registry/shared/contracts/followup';
import { request } from '../../../lib/request';
import { taskKeys } from './keys';

/** `POST followup/task/counts`: tasks per state under the worklist's filters (the tabs' counts). */
export function countTasks(body: TaskFilter): Promise<TaskCounts> {
  return request<TaskCounts>({ method: 'post', url: '/followup/task/counts', data: body });
}

export function useTaskCounts(body: TaskFilter) {
  return useQuery({
    queryKey: taskKeys.counts(body),
    queryFn: () => countTasks(body),
    placeholderData: keepPreviousData,
  });
}
