import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { CurrentProject, TenantDoctor } from '@registry/shared/contracts/project';
import { request } from '../lib/request';
import { queryKeys } from './keys';

/** `GET web-project/current`: the session's current project. */
export function getCurrentProject(): Promise<CurrentProject> {
  return request<CurrentProject>({ method: 'get', url: '/web-project/current' });
}

export function useCurrentProject() {
  return useQuery({ queryKey: queryKeys.projects.current, queryFn: getCurrentProject });
}

/** `GET web-project/change?projectId=`: makes the project current for the session (entering a project is audited). */
export function changeProject(projectId: string): Promise<CurrentProject> {
  return request<CurrentProject>({ method: 'get', url: '/web-project/change', params: { projectId } });
}

export function useChangeProject() {
  return useMutation({ mutationFn: changeProject });
}

/**
 * `GET web-project/current-project-tenant-doctors`: the acting tenant's active users (a member's account, a plan's
 * default owner, the worklist's owner filter and 分配给…). Fresh for a minute; the member page's account changes
 * invalidate it.
 */
export function listTenantDoctors(): Promise<TenantDoctor[]> {
  return request<TenantDoctor[]>({ method: 'get', url: '/web-project/current-project-tenant-doctors' });
}

export const tenantDoctorsQuery = (enabled = true) =>
  queryOptions({ queryKey: queryKeys.projects.tenantDoctors, queryFn: listTenantDoctors, staleTime: 60_000, enabled });

export function useTenantDoctors(enabled = true) {
  return useQuery(tenantDoctorsQuery(enabled));
}
