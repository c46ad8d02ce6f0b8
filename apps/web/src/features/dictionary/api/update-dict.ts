import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { DictVO, dictUpdateRequest } from '@registry/shared/contracts/dictionary';
import { request } from '../../../lib/request';
import { dictKeys } from '../../../api/dictionaries';

export type DictUpdateRequest = z.input<typeof dictUpdateRequest>;

/** `PUT sys-field-dict`: name and description of an own list. */
export function updateDict(body: DictUpdateRequest): Promise<DictVO> {
  return request<DictVO>({ method: 'put', url: '/sys-field-dict', data: body });
}

export function useUpdateDict() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateDict,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dictKeys.all }),
  });
}
