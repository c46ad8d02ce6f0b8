import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublishedVersion } from '@registry/shared/contracts/form-definition';
import { request } from '../../../lib/request';

/** `GET form-definition/published-version?id=`: a published version of the project or its parent (immutable). */
export function getPublishedVersion(id: string): Promise<PublishedVersion> {
  return request<PublishedVersion>({ method: 'get', url: '/form-definition/published-version', params: { id } });
}

export function publishedVersionQuery(id: string | null) {
  return queryOptions({
    queryKey: ['form-definition', 'published-version', id] as const,
    queryFn: () => getPublishedVersion(id as string),
    enabled: Boolean(id),
    staleTime: Infinity,
  });
}

/** The version a record was entered with, when it is not the current one (null: nothing to load). */
export function usePublishedVersion(id: string | null) {
  return useQuery(publishedVersionQuery(id));
}
