import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProjectUpdateRequest, ProjectVO } from '@registry/shared/contracts/project';
import { request } from '../../../lib/request';

/** `PUT web-project`: code, name, disease area, description. */
export function updateProject(body: ProjectUpdateRequest): Promise<ProjectVO> {
  return request<ProjectVO>({ method: 'put', url: '/web-project', data: body });
}

export function useUpdateProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProject,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['web-project'] }),
  });
}
