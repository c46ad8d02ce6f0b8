import { useQuery } from '@tanstack/react-query';
import type { PublishedVersion } from '@registry/shared/contracts/form-definition';
import { request } from '../../../lib/request';

/** `GET form-definition/published-version?id=`: the published version the visit's forms render with (immutable). */
export function getPublishedVersion(id: string): Promise<PublishedVersion> {
  return request<PublishedVersion>({ method: 'get', url: '/form-definition/published-version', params: { id } });
}

export function usePublishedVersion(id: string | null) {
  return useQuery({
    queryKey: ['form-definition', 'published-version', id],
    queryFn: () => getPublishedVersion(id as string),
    enabled: Boolean(id),
    staleTime: Infinity,
  });
}
