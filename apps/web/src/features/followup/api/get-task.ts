import { useQuery } from '@tanstack/react-query';
import type { TaskDetailVO } from '@registry/shared/contracts/followup';
import { request } from '../../../lib/request';
import { taskKeys } from './keys';

/** `GET followup/task/detail?id=`: the task, its patient, visit, contacts, forms and the patient's other tasks. */
export function getTask(id: string): Promise<TaskDetailVO> {
  return request<TaskDetailVO>({ method: 'get', url: '/followup/task/detail', params: { id } });
}

export function useTask(id: string | null) {
  return useQuery({
    queryKey: taskKeys.detail(id ?? ''),
    queryFn: () => getTask(id as string),
    enabled: Boolean(id),
    retry: false,
  });
}
