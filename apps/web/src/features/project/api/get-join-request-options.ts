import { useQuery } from '@tanstack/react-query';
import type { JoinRequestOptions } from '@registry/shared/contracts/join-request';
import { request } from '../../../lib/request';

/** `GET web-project/join-request/options?id=`: the roles and centers the caller may choose when approving. */
export function getJoinRequestOptions(id: string): Promise<JoinRequestOptions> {
  return request<JoinRequestOptions>({ method: 'get', url: '/web-project/join-request/options', params: { id } });
}

export function useJoinRequestOptions(id: string | undefined) {
  return useQuery({
    queryKey: ['web-project', 'join-request', 'options', id],
    queryFn: () => getJoinRequestOptions(id ?? ''),
    enabled: Boolean(id),
    gcTime: 0,
  });
}
