import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MemberUpdateRequest } from '@registry/shared/contracts/member';
import { request } from '../../../lib/request';

/** `PUT project-member`: role and/or center. */
export function updateMember(body: MemberUpdateRequest): Promise<unknown> {
  return request<unknown>({ method: 'put', url: '/project-member', data: body });
}

export function useUpdateMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMember,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['project-member'] }),
  });
}
