import { useQuery } from '@tanstack/react-query';
import type { MenuResponse } from '@registry/shared/contracts/auth';
import { request } from '../../../lib/request';

export function getMenu(groupCode: string): Promise<MenuResponse> {
  return request<MenuResponse>({ method: 'get', url: '/auth/menu', params: { groupCode } });
}

/** Fetched each time the layout that needs the group appears. */
export function useMenu(groupCode: string, enabled = true) {
  return useQuery({
    queryKey: ['auth', 'menu', groupCode],
    queryFn: () => getMenu(groupCode),
    enabled,
    staleTime: 0,
    gcTime: 0,
  });
}
