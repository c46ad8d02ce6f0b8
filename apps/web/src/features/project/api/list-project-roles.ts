import type { RoleVO } from '@registry/shared/contracts/role';
import { request } from '../../../lib/request';

/** `GET project-role/list`: the roles of the session's current project (for approving a join request). */
export function listProjectRoles(): Promise<RoleVO[]> {
  return request<RoleVO[]>({ method: 'get', url: '/project-role/list' });
}
