import { useQuery } from '@tanstack/react-query';
import type { SavedQueryVO } from '@registry/shared/contracts/retrieval';
import { request } from '../../../lib/request';
import { retrievalKeys } from './keys';

/** `GET retrieval/query/list`: the caller's saved queries and those shared in the current project. */
export function listQueries(): Promise<SavedQueryVO[]> {
  return request<SavedQueryVO[]>({ method: 'get', url: '/retrieval/query/list' });
}

/** `enabled`: false for a user without `retrieval.query` (the export page then offers the whole project only). */
export function useSavedQueries(enabled = true) {
  return useQuery({ queryKey: retrievalKeys.queryList, queryFn: listQueries, enabled });
}
