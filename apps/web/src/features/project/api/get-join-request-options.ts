import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { JoinRequestOptions } from '@registry/shared/contracts/join-request';
import { request } from '../../../lib/request';

/** `GET web-project/join-request/options?id=`: the roles and centers the caller may choose when approving. */
export function getJoinRequestOptions(id: string): Promise<JoinRequestOptions> {
  return request<JoinRequestOptions>({ method: 'get', url: '/web-project/join-request/options', params: { id } });
}

/**
 * After a request is decided: its approval choices are dropped, never fetched again (the server answers 409
 * 该申请已处理 for a decided request, which showed as a red toast right after a successful 同意), and the lists are
 * read again.
 */
export function refreshAfterDecision(queryClient: QueryClient, id: string): Promise<void> {
  queryClient.removeQueries({ queryKey: ['web-project', 'join-request', 'options', id] });
  return queryClient.invalidateQueries({
    queryKey: ['web-project', 'join-request'],
    predicate: (query) => query.queryKey[2] !== 'options',
  });
}

export function useJoinRequestOptions(id: string | undefined) {
  return useQuery({
    queryKey: ['web-project', 'join-request', 'options', id],
    queryFn: () => getJoinRequestOptions(id ?? ''),
    enabled: Boolean(id),
    gcTime: 0,
  });
}
