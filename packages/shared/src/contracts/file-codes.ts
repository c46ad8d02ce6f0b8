/**
 * The upload constants of the file contract (`file.ts`), without its zod schemas. `file.ts` re-exports them.
 */
/** Multipart field name of every upload call. */
export const UPLOAD_FIELD = 'file';

/** Optional query of the upload calls: what the file is for (decides the accepted types). */
export const UPLOAD_PURPOSES = ['avatar', 'document', 'attachment'] as const;
