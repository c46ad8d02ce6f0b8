import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/request';
import { followupKeys } from './keys';

export type StopPlanBody = { id: string; cancelOpenTasks: boolean };

/** `POST followup/plan/stop`: no more assignments; `cancelOpenTasks` also closes the plan's open tasks. */
export function stopPlan(body: StopPlanBody): Promise<unknown> {
  return request<unknown>({ method: 'post', url: '/followup/plan/stop', data: body });
}

export function useStopPlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: stopPlan,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: followupKeys.all }),
  });
}
