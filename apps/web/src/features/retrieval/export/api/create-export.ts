import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ExportCreateRequest, ExportJobVO } from '@registry/shared/contracts/export';
import { request } from '../../../../lib/request';
import { exportKeys } from './keys';

/** `POST retrieval/export`: starts an export job of the current project; the job as the history shows it. */
export function createExport(body: ExportCreateRequest): Promise<ExportJobVO> {
  return request<ExportJobVO>({ method: 'post', url: '/retrieval/export', data: body });
}

/** Starts an export; the history is read again after (the new job heads it). */
export function useCreateExport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createExport,
    onSuccess: (job) => {
      client.setQueryData(exportKeys.detail(job.id), job);
      return client.invalidateQueries({ queryKey: exportKeys.lists });
    },
  });
}
