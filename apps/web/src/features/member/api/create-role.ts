import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RoleCreateRequest } from '@registry/shared/contracts/role';
import { request } from '../../../lib/request';

/** `POST project-role`: a custom role of the current project. */
export function createRole(body: RoleCreateRequest): Promise<unknown> {
  return request<unknown>({ method: 'post', url: '/project-role', data: body });
}

export function useCreateRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRole,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['project-role'] }),
  });
}
