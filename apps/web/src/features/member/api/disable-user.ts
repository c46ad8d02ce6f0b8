import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserIdRequest } from '@registry/shared/contracts/user';
import { request } from '../../../lib/request';
import { tenantDoctorKeys } from '../../../api/tenant-doctors';

/** `POST sys-user/disable {userId}`: the sessions of the account end at once. */
export function disableUser(body: UserIdRequest): Promise<unknown> {
  return request<unknown>({ method: 'post', url: '/sys-user/disable', data: body });
}

export function useDisableUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disableUser,
    // The tenant's active users (a member's account, plan owners, the worklist's owners) change with it.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['project-member'] }),
        queryClient.invalidateQueries({ queryKey: tenantDoctorKeys.all }),
      ]),
  });
}
