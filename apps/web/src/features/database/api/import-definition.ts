import { UPLOAD_FIELD } from '@registry/shared/contracts/file-codes';
import type { ImportResponse } from '@registry/shared/contracts/form-definition';
import { request } from '../../../lib/request';

export type ImportSource = 'excel' | 'redcap';

/**
 * `POST form-definition/import/excel` or `.../import/redcap` (multipart `file`): the file parsed into a definition
 * with a report; nothing is saved.
 */
export function importDefinition(source: ImportSource, file: File): Promise<ImportResponse> {
  const data = new FormData();
  data.append(UPLOAD_FIELD, file);
  return request<ImportResponse>({
    method: 'post',
    url: `/form-definition/import/${source}`,
    data,
    registry: { upload: true },
  });
}
