import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/request';
import { dictKeys } from '../../../api/dictionaries';
import { dictOptionKeys } from '../../../api/dict-options';

/** `DELETE sys-field-dict-option?id=`: removes an option of an own list. */
export function deleteDictOption(id: string): Promise<unknown> {
  return request<unknown>({ method: 'delete', url: '/sys-field-dict-option', params: { id } });
}

export function useDeleteDictOption() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDictOption,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: dictOptionKeys.all });
      await queryClient.invalidateQueries({ queryKey: dictKeys.all });
    },
  });
}
