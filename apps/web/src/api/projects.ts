import { useMutation, useQuery } from '@tanstack/react-query';
import type { CurrentProject } from '@registry/shared/contracts/project';
import { request } from '../lib/request';

export const projectKeys = {
  current: ['web-project', 'current'] as const,
  ensureCurrent: (projectId: string | null | undefined) => ['web-project', 'ensure-current', projectId] as const,
};

/** `GET web-project/current`: the session's current project. */
export function getCurrentProject(): Promise<CurrentProject> {
  return request<CurrentProject>({ method: 'get', url: '/web-project/current' });
}

export function useCurrentProject() {
  return useQuery({ queryKey: projectKeys.current, queryFn: getCurrentProject });
}

/** `GET web-project/change?projectId=`: makes the project current for the session (entering a project is audited). */
export function changeProject(projectId: string): Promise<CurrentProject> {
  return request<CurrentProject>({ method: 'get', url: '/web-project/change', params: { projectId } });
}

export function useChangeProject() {
  return useMutation({ mutationFn: changeProject });
}
