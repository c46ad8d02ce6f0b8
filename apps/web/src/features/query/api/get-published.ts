import { useQuery } from '@tanstack/react-query';
import type { PublishedResponse } from '@registry/shared/contracts/form-definition';
import { request } from '../../../lib/request';

/** `GET form-definition/published`: the forms of the current project (the form filter's options). */
export function getPublished(): Promise<PublishedResponse> {
  return request<PublishedResponse>({ method: 'get', url: '/form-definition/published' });
}

export function usePublished() {
  return useQuery({ queryKey: ['form-definition', 'published'] as const, queryFn: getPublished, staleTime: 60_000 });
}
