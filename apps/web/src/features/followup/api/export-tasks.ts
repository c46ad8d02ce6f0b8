import type { taskExportRequest } from '@registry/shared/contracts/followup';
import type { z } from 'zod';
import { downloadFile } from '../../../lib/download';

export type TaskExportRequest = z.input<typeof taskExportRequest>;

/** `POST followup/task/export`: the filtered worklist as Excel, saved under the server's name. */
export function exportTasks(body: TaskExportRequest, today: string): Promise<void> {
  return downloadFile({ method: 'post', url: '/followup/task/export', data: body }, `随访列表-${today}.xlsx`);
}
