import { useQuery } from '@tanstack/react-query';
import type { RoleVO } from '@registry/shared/contracts/role';
import { request } from '../../../lib/request';

/** `GET project-role/list`: built-in roles first, then the project's custom roles. */
export function listRoles(): Promise<RoleVO[]> {
  return request<RoleVO[]>({ method: 'get', url: '/project-role/list' });
}

export function useRoles() {
  return useQuery({ queryKey: ['project-role', 'list'], queryFn: listRoles });
}
