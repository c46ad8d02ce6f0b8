import { useQuery } from '@tanstack/react-query';
import type { PublishedResponse } from '@registry/shared/contracts/form-definition';
import { request } from '../../../lib/request';

/**
 * `GET form-definition/published`: the definitions data is entered on (for a sub-project the parent's latest version
 * and its own); the list reads its list-flagged fields from them.
 */
export function getPublished(): Promise<PublishedResponse> {
  return request<PublishedResponse>({ method: 'get', url: '/form-definition/published' });
}

export const publishedQuery = () => ({
  queryKey: ['form-definition', 'published'] as const,
  queryFn: getPublished,
  staleTime: 60_000,
});

export function usePublished() {
  return useQuery(publishedQuery());
}
