import type { UploadResult } from '@registry/shared/contracts/file';
import { UPLOAD_FIELD } from '@registry/shared/contracts/file-codes';
import { API_BASE } from '@registry/shared/constants';
import { request } from '../../lib/request';
import { withAccessToken } from '../../lib/token';

/** `POST oss/file/upload-file?purpose=attachment` (multipart field `file`): a CRF file field's upload. */
export function uploadAttachment(file: File, onProgress?: (percent: number) => void): Promise<UploadResult> {
  const data = new FormData();
  data.append(UPLOAD_FIELD, file);
  return request<UploadResult>({
    method: 'post',
    url: '/oss/file/upload-file',
    params: { purpose: 'attachment' },
    data,
    registry: { upload: true },
    onUploadProgress: (event) => {
      if (onProgress && event.total) onProgress(Math.round((event.loaded / event.total) * 100));
    },
  });
}

/** The browser link of a stored file (the token rides along as a query parameter, seed §7). */
export function attachmentPreviewUrl(fileId: string): string {
  return withAccessToken(`${API_BASE}/oss/file/preview/${encodeURIComponent(fileId)}`);
}
