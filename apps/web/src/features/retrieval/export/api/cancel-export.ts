import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ExportJobVO } from '@registry/shared/contracts/export';
import { request } from '../../../../lib/request';
import { exportKeys } from './keys';

/** `POST retrieval/export/cancel` `{id}`: the caller's own export, while queued or running. */
export function cancelExport(id: string): Promise<ExportJobVO> {
  return request<ExportJobVO>({ method: 'post', url: '/retrieval/export/cancel', data: { id } });
}

export function useCancelExport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: cancelExport,
    onSuccess: (job) => {
      client.setQueryData(exportKeys.detail(job.id), job);
      return client.invalidateQueries({ queryKey: exportKeys.lists });
    },
  });
}
