import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/request';
import { retrievalKeys } from './keys';

/** `POST retrieval/query/delete`: the caller's own query (another's answers 403 with its reason). */
export function deleteQuery(id: string): Promise<null> {
  return request<null>({ method: 'post', url: '/retrieval/query/delete', data: { id } });
}

export function useDeleteQuery() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteQuery,
    onSuccess: () => client.invalidateQueries({ queryKey: retrievalKeys.queries }),
  });
}
