import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  SavedQueryCreateRequest,
  SavedQueryUpdateRequest,
  SavedQueryVO,
} from '@registry/shared/contracts/retrieval';
import { request } from '../../../lib/request';
import { retrievalKeys } from './keys';

/** `POST retrieval/query`: a new saved query of the caller (a name taken by another of theirs answers 409). */
export function createQuery(body: SavedQueryCreateRequest): Promise<SavedQueryVO> {
  return request<SavedQueryVO>({ method: 'post', url: '/retrieval/query', data: body });
}

/** `PUT retrieval/query`: the caller's own query, at the row version they read (a save in between answers 409). */
export function updateQuery(body: SavedQueryUpdateRequest): Promise<SavedQueryVO> {
  return request<SavedQueryVO>({ method: 'put', url: '/retrieval/query', data: body });
}

/** Saves as new (no `id`) or over the caller's query (`id` and `rowVersion`); the list is read again after. */
export function useSaveQuery() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SavedQueryCreateRequest | SavedQueryUpdateRequest) =>
      'id' in body ? updateQuery(body) : createQuery(body),
    onSuccess: () => client.invalidateQueries({ queryKey: retrievalKeys.queries }),
  });
}
