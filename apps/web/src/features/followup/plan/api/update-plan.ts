import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PlanUpdateRequest, PlanVO } from '@registry/shared/contracts/followup';
import { request } from '../../../../lib/request';
import { planKeys } from './keys';

/** `PUT followup/plan`: with the `rowVersion` read and, for a plan in use whose schedule changed, `reschedule`. */
export function updatePlan(body: PlanUpdateRequest): Promise<PlanVO> {
  return request<PlanVO>({ method: 'put', url: '/followup/plan', data: body });
}

export function useUpdatePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePlan,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: planKeys.all }),
  });
}
