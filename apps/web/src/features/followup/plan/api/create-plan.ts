import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PlanInput, PlanVO } from '@registry/shared/contracts/followup';
import { request } from '../../../../lib/request';
import { planKeys } from './keys';

/** `POST followup/plan`: a new draft plan. */
export function createPlan(body: PlanInput): Promise<PlanVO> {
  return request<PlanVO>({ method: 'post', url: '/followup/plan', data: body });
}

export function useCreatePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPlan,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: planKeys.all }),
  });
}
