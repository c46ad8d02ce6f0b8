import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { DictVO, dictCreateRequest } from '@registry/shared/contracts/dictionary';
import { request } from '../../../lib/request';
import { dictKeys } from '../../../api/dictionaries';

export type DictCreateRequest = z.input<typeof dictCreateRequest>;

/** `POST sys-field-dict`: a new list of the tenant. */
export function createDict(body: DictCreateRequest): Promise<DictVO> {
  return request<DictVO>({ method: 'post', url: '/sys-field-dict', data: body });
}

export function useCreateDict() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDict,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dictKeys.all }),
  });
}
