import type { UploadResult } from '@registry/shared/contracts/file';
import { UPLOAD_FIELD } from '@registry/shared/contracts/file-codes';
import { API_BASE } from '@registry/shared/constants';
import { request } from '../lib/request';
import { withAccessToken } from '../lib/token';

/** What an upload is for: a CRF file field's attachment or the user's avatar. */
export type UploadPurpose = 'attachment' | 'avatar';

/** `POST oss/file/upload-file?purpose=` (multipart field `file`), with the upload's progress in percent. */
export function uploadFile(
  file: File,
  purpose: UploadPurpose,
  onProgress?: (percent: number) => void,
): Promise<UploadResult> {
  const data = new FormData();
  data.append(UPLOAD_FIELD, file);
  return request<UploadResult>({
    method: 'post',
    url: '/oss/file/upload-file',
    params: { purpose },
    data,
    registry: { upload: true },
    onUploadProgress: (event) => {
      if (onProgress && event.total) onProgress(Math.round((event.loaded / event.total) * 100));
    },
  });
}

/** The browser link of a stored file (the token rides along as a query parameter, seed §7). */
export function filePreviewUrl(fileId: string): string {
  return withAccessToken(`${API_BASE}/oss/file/preview/${encodeURIComponent(fileId)}`);
}
