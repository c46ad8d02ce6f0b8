import { useQuery } from '@tanstack/react-query';
import type { SavedQueryVO } from '@registry/shared/contracts/retrieval';
import { request } from '../../../lib/request';
import { retrievalKeys } from './keys';

/** `GET retrieval/query/list`: the caller's saved queries and those shared in the current project. */
export function listQueries(): Promise<SavedQueryVO[]> {
  return request<SavedQueryVO[]>({ method: 'get', url: '/retrieval/query/list' });
}

export function useSavedQueries() {
  return useQuery({ queryKey: retrievalKeys.queryList, queryFn: listQueries });
}
