import { useQuery } from '@tanstack/react-query';
import type { TenantDoctor } from '@registry/shared/contracts/project';
import { request } from '../../../lib/request';

/** `GET web-project/current-project-tenant-doctors`: the acting tenant's active users. */
export function listTenantDoctors(): Promise<TenantDoctor[]> {
  return request<TenantDoctor[]>({ method: 'get', url: '/web-project/current-project-tenant-doctors' });
}

export function useTenantDoctors(enabled = true) {
  return useQuery({ queryKey: ['web-project', 'tenant-doctors'], queryFn: listTenantDoctors, enabled });
}
