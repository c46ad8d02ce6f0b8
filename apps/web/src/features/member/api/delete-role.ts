import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/request';

/** `DELETE project-role?id=`: a custom role no member holds. */
export function deleteRole(id: string): Promise<unknown> {
  return request<unknown>({ method: 'delete', url: '/project-role', params: { id } });
}

export function useDeleteRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteRole,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['project-role'] }),
  });
}
