import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserIdRequest } from '@registry/shared/contracts/user';
import { request } from '../../../lib/request';
import { tenantDoctorKeys } from '../../../api/tenant-doctors';

/** `POST sys-user/enable {userId}`. */
export function enableUser(body: UserIdRequest): Promise<unknown> {
  return request<unknown>({ method: 'post', url: '/sys-user/enable', data: body });
}

export function useEnableUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: enableUser,
    // The tenant's active users (a member's account, plan owners, the worklist's owners) change with it.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['project-member'] }),
        queryClient.invalidateQueries({ queryKey: tenantDoctorKeys.all }),
      ]),
  });
}
