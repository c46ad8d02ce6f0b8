import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/request';
import { dictKeys } from '../../../api/dictionaries';
import { dictOptionKeys } from '../../../api/dict-options';

/** `DELETE sys-field-dict?id=`: an own list no form uses (else 409 字典正在被表单使用). */
export function deleteDict(id: string): Promise<unknown> {
  return request<unknown>({ method: 'delete', url: '/sys-field-dict', params: { id } });
}

export function useDeleteDict() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDict,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: dictKeys.all });
      await queryClient.invalidateQueries({ queryKey: dictOptionKeys.all });
    },
  });
}
