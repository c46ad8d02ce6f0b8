import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PlanApplyResponse } from '@registry/shared/contracts/followup';
import { request } from '../../../../lib/request';
import { planKeys } from './keys';

/** `POST followup/plan/activate`: the plan starts following patients; answers what the rule run did. */
export function activatePlan(id: string): Promise<PlanApplyResponse> {
  return request<PlanApplyResponse>({ method: 'post', url: '/followup/plan/activate', data: { id } });
}

export function useActivatePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: activatePlan,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: planKeys.all }),
  });
}
