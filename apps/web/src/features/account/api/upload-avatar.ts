import type { UploadResult } from '@registry/shared/contracts/file';
import { UPLOAD_FIELD } from '@registry/shared/contracts/file-codes';
import { request } from '../../../lib/request';

/** `POST oss/file/upload-file?purpose=avatar` (multipart field `file`). */
export function uploadAvatar(file: File, onProgress?: (percent: number) => void): Promise<UploadResult> {
  const data = new FormData();
  data.append(UPLOAD_FIELD, file);
  return request<UploadResult>({
    method: 'post',
    url: '/oss/file/upload-file',
    params: { purpose: 'avatar' },
    data,
    registry: { upload: true },
    onUploadProgress: (event) => {
      if (onProgress && event.total) onProgress(Math.round((event.loaded / event.total) * 100));
    },
  });
}
