import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { taskAssignRequest } from '@registry/shared/contracts/followup';
import type { z } from 'zod';
import { request } from '../../../lib/request';
import { taskKeys } from './keys';

export type TaskAssignRequest = z.input<typeof taskAssignRequest>;

/** `POST followup/task/assign` (`followup.edit`): the owner of open tasks (null = unassigned); closed ones are skipped. */
export function assignTasks(body: TaskAssignRequest): Promise<unknown> {
  return request<unknown>({ method: 'post', url: '/followup/task/assign', data: body });
}

export function useAssignTasks() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: assignTasks,
    onSuccess: () => client.invalidateQueries({ queryKey: taskKeys.tasks }),
  });
}
