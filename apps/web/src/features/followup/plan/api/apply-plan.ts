import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PlanApplyResponse } from '@registry/shared/contracts/followup';
import { request } from '../../../../lib/request';
import { planKeys } from './keys';

/** `POST followup/plan/apply`: runs the assignment rule of an active plan again. */
export function applyPlan(id: string): Promise<PlanApplyResponse> {
  return request<PlanApplyResponse>({ method: 'post', url: '/followup/plan/apply', data: { id } });
}

export function useApplyPlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: applyPlan,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: planKeys.all }),
  });
}
