import { z } from 'zod';
import { UPLOAD_FIELD, UPLOAD_PURPOSES } from './file-codes';

export { UPLOAD_FIELD, UPLOAD_PURPOSES };

export const uploadQuery = z.object({ purpose: z.enum(UPLOAD_PURPOSES).optional() });

export const uploadResult = z.object({
  id: z.string(),
  name: z.string(),
  size: z.number().int(),
  contentType: z.string(),
  /** A link under the API base; append `?access_token=<token>` to open it in the browser. */
  previewUrl: z.string(),
});
export type UploadResult = z.infer<typeof uploadResult>;

export const fileIdParams = z.object({ id: z.string().uuid('文件不存在') });
