import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CenterCreateRequest } from '@registry/shared/contracts/center';
import { request } from '../../../lib/request';
import { centerKeys } from '../../../api/centers';

/** `POST project-center`: a new center of the current project. */
export function createCenter(body: CenterCreateRequest): Promise<unknown> {
  return request<unknown>({ method: 'post', url: '/project-center', data: body });
}

export function useCreateCenter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCenter,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: centerKeys.all }),
  });
}
