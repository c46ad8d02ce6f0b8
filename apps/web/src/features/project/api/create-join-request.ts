import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { JoinRequestCreate, JoinRequestVO } from '@registry/shared/contracts/join-request';
import { request } from '../../../lib/request';

/** `POST web-project/join-request {projectId, message?}`. */
export function createJoinRequest(body: JoinRequestCreate): Promise<JoinRequestVO> {
  return request<JoinRequestVO>({ method: 'post', url: '/web-project/join-request', data: body });
}

export function useCreateJoinRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createJoinRequest,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['web-project'] }),
  });
}
