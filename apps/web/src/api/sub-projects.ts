import { useQuery } from '@tanstack/react-query';
import type { ProjectListResponse, ProjectVO } from '@registry/shared/contracts/project';
import { request } from '../lib/request';

/** `POST web-project/list`, narrowed to the sub-projects of `projectId` (a follow-up assignment rule's cohorts, the retrieval builder's sub-project condition). */
export async function listSubProjects(projectId: string): Promise<ProjectVO[]> {
  const answer = await request<ProjectListResponse>({ method: 'post', url: '/web-project/list', data: {} });
  return answer.projectVOs.filter((p) => p.parentId === projectId);
}

export function useSubProjects(projectId: string | null) {
  return useQuery({
    queryKey: ['web-project', 'sub-projects', projectId],
    queryFn: () => listSubProjects(projectId ?? ''),
    enabled: Boolean(projectId),
    staleTime: 60_000,
  });
}
