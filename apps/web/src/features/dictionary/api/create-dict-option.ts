import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { DictOptionVO, dictOptionCreateRequest } from '@registry/shared/contracts/dictionary';
import { request } from '../../../lib/request';
import { dictKeys } from '../../../api/dictionaries';
import { dictOptionKeys } from '../../../api/dict-options';

export type DictOptionCreateRequest = z.input<typeof dictOptionCreateRequest>;

/** `POST sys-field-dict-option`: a new option of an own list. */
export function createDictOption(body: DictOptionCreateRequest): Promise<DictOptionVO> {
  return request<DictOptionVO>({ method: 'post', url: '/sys-field-dict-option', data: body });
}

export function useCreateDictOption() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDictOption,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: dictOptionKeys.all });
      await queryClient.invalidateQueries({ queryKey: dictKeys.all });
    },
  });
}
