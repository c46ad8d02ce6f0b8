import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { JoinRequestRefuse } from '@registry/shared/contracts/join-request';
import { request } from '../../../lib/request';
import { refreshAfterDecision } from './get-join-request-options';

/** `POST web-project/join-request/refuse {id, reason}`. */
export function refuseJoinRequest(body: JoinRequestRefuse): Promise<unknown> {
  return request<unknown>({ method: 'post', url: '/web-project/join-request/refuse', data: body });
}

export function useRefuseJoinRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refuseJoinRequest,
    onSuccess: (_data, body) => refreshAfterDecision(queryClient, body.id),
  });
}
