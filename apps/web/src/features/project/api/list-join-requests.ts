import { useQuery } from '@tanstack/react-query';
import type { JoinRequestPageRequest, JoinRequestVO } from '@registry/shared/contracts/join-request';
import type { Page } from '../../../lib/page';
import { request } from '../../../lib/request';

/** `POST web-project/join-request/page`: requests to the projects the caller manages. */
export function listJoinRequests(body: JoinRequestPageRequest): Promise<Page<JoinRequestVO>> {
  return request<Page<JoinRequestVO>>({ method: 'post', url: '/web-project/join-request/page', data: body });
}

export function useJoinRequests(body: JoinRequestPageRequest) {
  return useQuery({ queryKey: ['web-project', 'join-request', 'page', body], queryFn: () => listJoinRequests(body) });
}
