import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateUserRequest } from '@registry/shared/contracts/user';
import { request } from '../../../lib/request';
import { userKeys } from '../../../api/user-info';

export function updateUser(body: UpdateUserRequest): Promise<unknown> {
  return request<unknown>({ method: 'put', url: '/sys-user', data: body });
}

/** Saves the user, then resets the cached user info so it reloads. */
export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.info }),
  });
}
