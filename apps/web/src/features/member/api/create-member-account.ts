import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MemberAccountRequest, MemberAccountResponse } from '@registry/shared/contracts/member';
import { request } from '../../../lib/request';

/** `POST project-member/account`: a new account added as a member; the initial password is answered once. */
export function createMemberAccount(body: MemberAccountRequest): Promise<MemberAccountResponse> {
  return request<MemberAccountResponse>({ method: 'post', url: '/project-member/account', data: body });
}

export function useCreateMemberAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createMemberAccount,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['project-member'] }),
  });
}
