import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TenantDoctor } from '@registry/shared/contracts/project';
import { request } from '../lib/request';

export const tenantDoctorKeys = { all: ['web-project', 'tenant-doctors'] as const };

/**
 * `GET web-project/current-project-tenant-doctors`: the acting tenant's active users (a member's account, a plan's
 * default owner, the worklist's owner filter and 分配给…). Fresh for a minute; the member page's account changes
 * invalidate it.
 */
export function listTenantDoctors(): Promise<TenantDoctor[]> {
  return request<TenantDoctor[]>({ method: 'get', url: '/web-project/current-project-tenant-doctors' });
}

export const tenantDoctorsQuery = (enabled = true) =>
  queryOptions({ queryKey: tenantDoctorKeys.all, queryFn: listTenantDoctors, staleTime: 60_000, enabled });

export function useTenantDoctors(enabled = true) {
  return useQuery(tenantDoctorsQuery(enabled));
}
