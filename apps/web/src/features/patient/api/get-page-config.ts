import { useQuery } from '@tanstack/react-query';
import type { PageConfigResponse, PageKey } from '@registry/shared/contracts/page-config';
import { request } from '../../../lib/request';

export const pageConfigKeys = {
  one: (pageKey: PageKey) => ['page-config-custom', pageKey] as const,
};

/** `GET page-config-custom?pageKey=`: the user's saved table layout of a page, or null for the default. */
export function getPageConfig(pageKey: PageKey): Promise<PageConfigResponse> {
  return request<PageConfigResponse>({ method: 'get', url: '/page-config-custom', params: { pageKey } });
}

export function usePageConfig(pageKey: PageKey) {
  return useQuery({
    queryKey: pageConfigKeys.one(pageKey),
    queryFn: () => getPageConfig(pageKey),
    // Read once per visit: later changes are the page's own, saved in the background.
    staleTime: Infinity,
  });
}
