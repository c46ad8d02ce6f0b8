import { useQuery } from '@tanstack/react-query';
import type { PublishedResponse } from '@registry/shared/contracts/form-definition';
import { request } from '../../../lib/request';

/** `GET form-definition/published`: the forms a plan's anchor, rule and visits refer to. */
export function getPublished(): Promise<PublishedResponse> {
  return request<PublishedResponse>({ method: 'get', url: '/form-definition/published' });
}

export function usePublished() {
  return useQuery({ queryKey: ['form-definition', 'published'], queryFn: getPublished, staleTime: 60_000 });
}
