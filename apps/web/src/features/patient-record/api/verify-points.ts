import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/request';
import { recordKeys } from './keys';

/** `POST form-record/sdv`: marks the latest versions of `paths` verified against the source (`patient.sdv`). */
export function verifyPoints(body: { recordId: string; paths: string[] }): Promise<{ verified: number }> {
  return request<{ verified: number }>({ method: 'post', url: '/form-record/sdv', data: body });
}

export function useVerifyPoints() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyPoints,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: recordKeys.histories }),
        queryClient.invalidateQueries({ queryKey: recordKeys.lists }),
      ]),
  });
}
