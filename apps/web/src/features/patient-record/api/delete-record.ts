import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/request';
import { recordKeys } from './keys';

/** `DELETE form-record?id=&reason=`: removes an instance of a repeating form (not a locked one). */
export function deleteRecord(params: { id: string; reason?: string }): Promise<{ deleted: number }> {
  return request<{ deleted: number }>({ method: 'delete', url: '/form-record', params });
}

export function useDeleteRecord() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteRecord,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: recordKeys.lists }),
  });
}
