import { useMutation } from '@tanstack/react-query';
import type { ExportJobVO } from '@registry/shared/contracts/export';
import { downloadFile } from '../../../../lib/download';

/**
 * `GET retrieval/export/download?id=`: the export's file, through the request layer (the session's header, its error
 * toasts), saved under the server's name. Only the job's id is in the address.
 */
export function downloadExport(job: Pick<ExportJobVO, 'id' | 'fileName'>): Promise<void> {
  return downloadFile(
    { method: 'get', url: '/retrieval/export/download', params: { id: job.id } },
    job.fileName ?? `数据导出-${job.id}`,
  );
}

/** A download is an action (a click); `variables` tells which row's button spins. */
export function useDownloadExport() {
  return useMutation({ mutationFn: downloadExport });
}
