import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DataQueryVO } from '@registry/shared/contracts/form-record';
import { request } from '../../../lib/request';
import { recordKeys } from './keys';

/** `POST form-record/query`: raises a query on a data point (`patient.query`). */
export function createQuery(body: { recordId: string; path: string; message: string }): Promise<DataQueryVO> {
  return request<DataQueryVO>({ method: 'post', url: '/form-record/query', data: body });
}

export function useCreateQuery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createQuery,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: recordKeys.histories }),
        queryClient.invalidateQueries({ queryKey: recordKeys.lists }),
      ]),
  });
}
