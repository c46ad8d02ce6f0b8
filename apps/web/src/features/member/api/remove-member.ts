import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/request';

/** `DELETE project-member?id=`. */
export function removeMember(id: string): Promise<unknown> {
  return request<unknown>({ method: 'delete', url: '/project-member', params: { id } });
}

export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeMember,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['project-member'] }),
  });
}
