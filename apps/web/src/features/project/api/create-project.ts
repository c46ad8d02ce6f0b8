import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProjectCreateRequest, ProjectVO } from '@registry/shared/contracts/project';
import { request } from '../../../lib/request';

/** `POST web-project`: a project, or a sub-project when `parentId` is set. */
export function createProject(body: ProjectCreateRequest): Promise<ProjectVO> {
  return request<ProjectVO>({ method: 'post', url: '/web-project', data: body });
}

export function useCreateProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProject,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['web-project'] }),
  });
}
