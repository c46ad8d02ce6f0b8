import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CenterIdRequest } from '@registry/shared/contracts/center';
import { request } from '../../../lib/request';
import { centerKeys } from '../../../api/centers';

/** `POST project-center/reopen`. */
export function reopenCenter(body: CenterIdRequest): Promise<unknown> {
  return request<unknown>({ method: 'post', url: '/project-center/reopen', data: body });
}

export function useReopenCenter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reopenCenter,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: centerKeys.all }),
  });
}
