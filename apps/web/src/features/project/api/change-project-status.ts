import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProjectStatusRequest } from '@registry/shared/contracts/project';
import { request } from '../../../lib/request';

/** `POST web-project/status`: archive, restore, activate, lock. */
export function changeProjectStatus(body: ProjectStatusRequest): Promise<unknown> {
  return request<unknown>({ method: 'post', url: '/web-project/status', data: body });
}

export function useChangeProjectStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeProjectStatus,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['web-project'] }),
  });
}
