import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { DictOptionVO, dictOptionUpdateRequest } from '@registry/shared/contracts/dictionary';
import { request } from '../../../lib/request';
import { dictOptionKeys } from '../../../api/dict-options';

export type DictOptionUpdateRequest = z.input<typeof dictOptionUpdateRequest>;

/** `PUT sys-field-dict-option`: label, sort or enabled of an own list's option (codes are stable). */
export function updateDictOption(body: DictOptionUpdateRequest): Promise<DictOptionVO> {
  return request<DictOptionVO>({ method: 'put', url: '/sys-field-dict-option', data: body });
}

export function useUpdateDictOption() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateDictOption,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dictOptionKeys.all }),
  });
}
