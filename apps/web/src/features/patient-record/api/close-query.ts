import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DataQueryVO } from '@registry/shared/contracts/form-record';
import { request } from '../../../lib/request';
import { recordKeys } from './keys';

/** `POST form-record/query/close`: closes a query with an optional note (`patient.query`). */
export function closeQuery(body: { id: string; note?: string }): Promise<DataQueryVO> {
  return request<DataQueryVO>({ method: 'post', url: '/form-record/query/close', data: body });
}

export function useCloseQuery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: closeQuery,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: recordKeys.histories }),
        queryClient.invalidateQueries({ queryKey: recordKeys.lists }),
      ]),
  });
}
