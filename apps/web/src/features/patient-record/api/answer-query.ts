import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DataQueryVO } from '@registry/shared/contracts/form-record';
import { request } from '../../../lib/request';
import { recordKeys } from './keys';

/** `POST form-record/query/answer`: answers an open query (`patient.edit`). */
export function answerQuery(body: { id: string; answer: string }): Promise<DataQueryVO> {
  return request<DataQueryVO>({ method: 'post', url: '/form-record/query/answer', data: body });
}

export function useAnswerQuery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: answerQuery,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: recordKeys.histories }),
        queryClient.invalidateQueries({ queryKey: recordKeys.lists }),
      ]),
  });
}
