import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/request';
import { recordKeys } from './keys';

/** `DELETE form-record?id=` with `{ reason }` in the body (never in the URL): removes an instance of a repeating form. */
export function deleteRecord({ id, reason }: { id: string; reason?: string }): Promise<{ deleted: number }> {
  return request<{ deleted: number }>({ method: 'delete', url: '/form-record', params: { id }, data: { reason } });
}

export function useDeleteRecord() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteRecord,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: recordKeys.lists }),
  });
}
