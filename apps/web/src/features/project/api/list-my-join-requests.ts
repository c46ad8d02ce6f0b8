import { useQuery } from '@tanstack/react-query';
import type { JoinRequestVO } from '@registry/shared/contracts/join-request';
import { request } from '../../../lib/request';

/** `GET web-project/join-request/mine`: the caller's own requests and their state. */
export function listMyJoinRequests(): Promise<JoinRequestVO[]> {
  return request<JoinRequestVO[]>({ method: 'get', url: '/web-project/join-request/mine' });
}

export function useMyJoinRequests(enabled = true) {
  return useQuery({ queryKey: ['web-project', 'join-request', 'mine'], queryFn: listMyJoinRequests, enabled });
}
