import { useQuery } from '@tanstack/react-query';
import type { CurrentProject } from '@registry/shared/contracts/project';
import { request } from '../../../lib/request';

export function getCurrentProject(): Promise<CurrentProject> {
  return request<CurrentProject>({ method: 'get', url: '/web-project/current' });
}

export function useCurrentProject() {
  return useQuery({ queryKey: ['web-project', 'current'], queryFn: getCurrentProject });
}
