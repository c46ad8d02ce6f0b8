import { useQuery } from '@tanstack/react-query';
import type { TenantDoctor } from '@registry/shared/contracts/project';
import { request } from '../../../lib/request';

/** `GET web-project/current-project-tenant-doctors`: who may own a plan's tasks. */
export function listDoctors(): Promise<TenantDoctor[]> {
  return request<TenantDoctor[]>({ method: 'get', url: '/web-project/current-project-tenant-doctors' });
}

export function useDoctors() {
  return useQuery({ queryKey: ['web-project', 'tenant-doctors'], queryFn: listDoctors, staleTime: 60_000 });
}
