import { useMutation } from '@tanstack/react-query';
import type { SavedQueryVO } from '@registry/shared/contracts/retrieval';
import { request } from '../../../lib/request';

/** `GET retrieval/query/detail?id=`: one saved query as it is now (its current row version, for a later 保存). */
export function getQuery(id: string): Promise<SavedQueryVO> {
  return request<SavedQueryVO>({ method: 'get', url: '/retrieval/query/detail', params: { id } });
}

/** Opening a query is an action (a click), not a view of the page: a mutation, read once per click. */
export function useOpenQuery() {
  return useMutation({ mutationFn: getQuery });
}
