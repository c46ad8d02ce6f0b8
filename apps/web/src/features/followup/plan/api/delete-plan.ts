import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../../lib/request';
import { planKeys } from './keys';

/** `DELETE followup/plan?id=`: removes a draft plan. */
export function deletePlan(id: string): Promise<unknown> {
  return request<unknown>({ method: 'delete', url: '/followup/plan', params: { id } });
}

export function useDeletePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePlan,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: planKeys.all }),
  });
}
