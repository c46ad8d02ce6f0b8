import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublishedResponse, PublishedVersion } from '@registry/shared/contracts/form-definition';
import { request } from '../lib/request';

export const formDefinitionKeys = {
  published: ['form-definition', 'published'] as const,
  publishedVersion: (id: string | null) => ['form-definition', 'published-version', id] as const,
};

/**
 * `GET form-definition/published`: the definitions data is entered on (for a sub-project the parent's latest version
 * and its own). The patient pages, the follow-up plan editor and the query list read their forms and fields from it.
 */
export function getPublished(): Promise<PublishedResponse> {
  return request<PublishedResponse>({ method: 'get', url: '/form-definition/published' });
}

export const publishedQuery = () =>
  queryOptions({ queryKey: formDefinitionKeys.published, queryFn: getPublished, staleTime: 60_000 });

export function usePublished() {
  return useQuery(publishedQuery());
}

/** `GET form-definition/published-version?id=`: a published version of the project or its parent (immutable). */
export function getPublishedVersion(id: string): Promise<PublishedVersion> {
  return request<PublishedVersion>({ method: 'get', url: '/form-definition/published-version', params: { id } });
}

export function publishedVersionQuery(id: string | null) {
  return queryOptions({
    queryKey: formDefinitionKeys.publishedVersion(id),
    queryFn: () => getPublishedVersion(id as string),
    enabled: Boolean(id),
    staleTime: Infinity,
  });
}

/** A published version by id (null: nothing to load), e.g. the one a record was entered with. */
export function usePublishedVersion(id: string | null) {
  return useQuery(publishedVersionQuery(id));
}
