import type { MultipartFile } from '@fastify/multipart';
import { pipeline, Transform, type Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, ERROR_MESSAGES } from '../lib/errors';
import { ObjectTooLargeError } from '../lib/storage';

/**
 * A multipart file's bytes as a stream to store. The multipart plugin cuts a file at UPLOAD_MAX_BYTES and only
 * flags it (`truncated`); this stream then fails with the 413 at its end instead, so a cut file is never stored as if
 * it were whole.
 */
export function filePartStream(part: MultipartFile, maxBytes: number): Readable {
  const guard = new Transform({
    transform(chunk, _encoding, callback) {
      callback(null, chunk);
    },
    flush(callback) {
      callback(part.file.truncated ? new ObjectTooLargeError(maxBytes) : null);
    },
  });
  // errors travel both ways: a failed store stops the part, a broken part fails the store
  return pipeline(part.file, guard, () => undefined);
}

/**
 * The uploaded `file` part of a multipart request, whole in memory, for a call that must parse all of it (an Excel or
 * CSV import); size-limited by the multipart plugin: UPLOAD_MAX_BYTES.
 */
export async function readFilePart(request: FastifyRequest): Promise<{ fileName: string; data: Buffer }> {
  if (!request.isMultipart()) throw new AppError(400, '请使用 multipart/form-data 上传文件');
  const part: MultipartFile | undefined = await request.file();
  if (!part || part.fieldname !== 'file') throw new AppError(400, ERROR_MESSAGES.noFile);
  return { fileName: part.filename, data: await part.toBuffer() };
}

function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** A generated file as a download (never cached, never sniffed, sandboxed should a browser open it). */
export function sendDownload(
  reply: FastifyReply,
  file: { fileName: string; contentType: string; body: Buffer | Readable; size?: number },
) {
  if (file.size !== undefined) reply.header('content-length', file.size);
  return reply
    .header('content-disposition', contentDisposition(file.fileName))
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .type(file.contentType)
    .send(file.body);
}
