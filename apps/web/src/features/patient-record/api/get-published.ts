import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublishedResponse } from '@registry/shared/contracts/form-definition';
import { request } from '../../../lib/request';
import { PUBLISHED_KEY } from './keys';

/** `GET form-definition/published`: the definitions data is entered on (a sub-project: the parent's and its own). */
export function getPublished(): Promise<PublishedResponse> {
  return request<PublishedResponse>({ method: 'get', url: '/form-definition/published' });
}

export function publishedQuery() {
  return queryOptions({ queryKey: PUBLISHED_KEY, queryFn: getPublished, staleTime: 60_000 });
}

export function usePublished() {
  return useQuery(publishedQuery());
}
