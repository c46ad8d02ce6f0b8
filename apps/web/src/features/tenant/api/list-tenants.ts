import { useQuery } from '@tanstack/react-query';
import type { TenantPageQuery, TenantVO } from '@registry/shared/contracts/tenant';
import type { Page } from '../../../lib/page';
import { request } from '../../../lib/request';

/** `GET sys-tenant/page?current=&size=&keyword=` (sys administrators). */
export function listTenants(params: TenantPageQuery): Promise<Page<TenantVO>> {
  return request<Page<TenantVO>>({ method: 'get', url: '/sys-tenant/page', params });
}

export function useTenants(params: TenantPageQuery, enabled = true) {
  return useQuery({ queryKey: ['sys-tenant', 'page', params], queryFn: () => listTenants(params), enabled });
}
