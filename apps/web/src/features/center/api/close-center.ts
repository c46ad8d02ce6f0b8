import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CenterIdRequest } from '@registry/shared/contracts/center';
import { request } from '../../../lib/request';
import { centerKeys } from '../../../api/centers';

/** `POST project-center/close`: the center takes no new patients or members. */
export function closeCenter(body: CenterIdRequest): Promise<unknown> {
  return request<unknown>({ method: 'post', url: '/project-center/close', data: body });
}

export function useCloseCenter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: closeCenter,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: centerKeys.all }),
  });
}
