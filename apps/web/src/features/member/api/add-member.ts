import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MemberAddRequest } from '@registry/shared/contracts/member';
import { request } from '../../../lib/request';

/** `POST project-member`: adds an existing user of the tenant with a role and a center. */
export function addMember(body: MemberAddRequest): Promise<unknown> {
  return request<unknown>({ method: 'post', url: '/project-member', data: body });
}

export function useAddMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addMember,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['project-member'] }),
  });
}
