import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserIdRequest } from '@registry/shared/contracts/user';
import { request } from '../../../lib/request';

/** `POST sys-user/enable {userId}`. */
export function enableUser(body: UserIdRequest): Promise<unknown> {
  return request<unknown>({ method: 'post', url: '/sys-user/enable', data: body });
}

export function useEnableUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: enableUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['project-member'] }),
  });
}
