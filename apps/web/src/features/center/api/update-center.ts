import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CenterUpdateRequest } from '@registry/shared/contracts/center';
import { request } from '../../../lib/request';
import { centerKeys } from '../../../api/centers';

/** `PUT project-center`: code, name, organisation, lead. */
export function updateCenter(body: CenterUpdateRequest): Promise<unknown> {
  return request<unknown>({ method: 'put', url: '/project-center', data: body });
}

export function useUpdateCenter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCenter,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: centerKeys.all }),
  });
}
