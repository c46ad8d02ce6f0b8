import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MemberAccountRequest, MemberAccountResponse } from '@registry/shared/contracts/member';
import { request } from '../../../lib/request';
import { tenantDoctorKeys } from '../../../api/tenant-doctors';

/** `POST project-member/account`: a new account added as a member; the initial password is answered once. */
export function createMemberAccount(body: MemberAccountRequest): Promise<MemberAccountResponse> {
  return request<MemberAccountResponse>({ method: 'post', url: '/project-member/account', data: body });
}

export function useCreateMemberAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createMemberAccount,
    // The tenant's active users (a member's account, plan owners, the worklist's owners) change with it.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['project-member'] }),
        queryClient.invalidateQueries({ queryKey: tenantDoctorKeys.all }),
      ]),
  });
}
