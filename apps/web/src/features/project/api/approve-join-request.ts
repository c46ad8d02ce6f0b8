import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { JoinRequestApprove } from '@registry/shared/contracts/join-request';
import { request } from '../../../lib/request';
import { refreshAfterDecision } from './get-join-request-options';

/** `POST web-project/join-request/approve {id, roleId, centerId}`. */
export function approveJoinRequest(body: JoinRequestApprove): Promise<unknown> {
  return request<unknown>({ method: 'post', url: '/web-project/join-request/approve', data: body });
}

export function useApproveJoinRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: approveJoinRequest,
    onSuccess: (_data, body) => refreshAfterDecision(queryClient, body.id),
  });
}
