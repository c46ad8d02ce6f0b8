import { useQuery } from '@tanstack/react-query';
import type { ProjectListResponse } from '@registry/shared/contracts/project';
import { request } from '../../../lib/request';

export type ProjectScope = 'all' | 'owned' | 'joined';

/** `POST web-project/list[/{scope}]` with `{ keyword? }`. */
export function listProjects(keyword: string, scope: ProjectScope = 'all'): Promise<ProjectListResponse> {
  const body = keyword.trim() ? { keyword: keyword.trim() } : {};
  return request<ProjectListResponse>({
    method: 'post',
    url: scope === 'all' ? '/web-project/list' : `/web-project/list/${scope}`,
    data: body,
  });
}

export function useProjectList(keyword: string, scope: ProjectScope = 'all') {
  return useQuery({
    queryKey: ['web-project', 'list', scope, keyword.trim()],
    queryFn: () => listProjects(keyword, scope),
  });
}
