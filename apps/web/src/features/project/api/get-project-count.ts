import { useQuery } from '@tanstack/react-query';
import type { ProjectCount } from '@registry/shared/contracts/project';
import { request } from '../../../lib/request';

export function getProjectCount(): Promise<ProjectCount> {
  return request<ProjectCount>({ method: 'get', url: '/web-project/count' });
}

export function useProjectCount() {
  return useQuery({ queryKey: ['web-project', 'count'], queryFn: getProjectCount });
}
