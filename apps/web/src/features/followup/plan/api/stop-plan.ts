import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../../lib/request';
import { planKeys } from './keys';

export type StopPlanBody = { id: string; cancelOpenTasks: boolean };

/** `POST followup/plan/stop`: no more assignments; `cancelOpenTasks` also closes the plan's open tasks (`count`). */
export function stopPlan(body: StopPlanBody): Promise<{ count: number } | null> {
  return request<{ count: number } | null>({ method: 'post', url: '/followup/plan/stop', data: body });
}

export function useStopPlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: stopPlan,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: planKeys.all }),
  });
}
