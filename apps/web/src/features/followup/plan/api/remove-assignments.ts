import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../../lib/request';
import { planKeys } from './keys';

/** `POST followup/assignment/remove`: the patients stop following the plan; open tasks are cancelled with the reason. */
export function removeAssignments(body: {
  planId: string;
  patientIds: string[];
  reason: string;
}): Promise<{ count: number }> {
  return request<{ count: number }>({ method: 'post', url: '/followup/assignment/remove', data: body });
}

export function useRemoveAssignments() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeAssignments,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: planKeys.all }),
  });
}
