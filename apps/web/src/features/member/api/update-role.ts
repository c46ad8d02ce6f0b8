import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RoleUpdateRequest } from '@registry/shared/contracts/role';
import { request } from '../../../lib/request';

/** `PUT project-role`: the name and codes of a custom role. */
export function updateRole(body: RoleUpdateRequest): Promise<unknown> {
  return request<unknown>({ method: 'put', url: '/project-role', data: body });
}

export function useUpdateRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateRole,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['project-role'] }),
  });
}
