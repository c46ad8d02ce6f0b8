import type { MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_BASE } from '@registry/shared/constants';
import { fileIdParams, uploadQuery, uploadResult } from '@registry/shared/contracts/file';
import { AppError, ERROR_MESSAGES } from '../../lib/errors';
import { requireAuth } from '../../plugins/access';
import { auditContext } from '../../plugins/audit';
import { binaryResponse } from '../../plugins/binary';
import { filePartStream } from '../../plugins/file-transfer';
import { ok, okSchema } from '../../plugins/envelope';
import { isInlineType } from './file-type-check';
import type { FileService, IncomingFile } from './file.service';

const previewQuery = z.object({ access_token: z.string().max(200).optional() });

/** The one file of the request, streamed: it is read as it is stored. */
async function readOne(request: FastifyRequest, maxBytes: number): Promise<IncomingFile[]> {
  if (!request.isMultipart()) throw new AppError(400, '请使用 multipart/form-data 上传文件');
  const part: MultipartFile | undefined = await request.file();
  if (!part) throw new AppError(400, ERROR_MESSAGES.noFile);
  return [{ fileName: part.filename, stream: filePartStream(part, maxBytes) }];
}

/** Every file of the request, each streamed in turn (a part is read before the next one arrives). */
async function* readMany(request: FastifyRequest, maxBytes: number): AsyncGenerator<IncomingFile> {
  if (!request.isMultipart()) throw new AppError(400, '请使用 multipart/form-data 上传文件');
  for await (const part of request.files()) yield { fileName: part.filename, stream: filePartStream(part, maxBytes) };
}

function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** The policy of every served upload: no script, no plugin, no origin (`sandbox`), only its own image shown. */
export const UPLOAD_CSP = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox";

export function registerFileRoutes(root: FastifyInstance, deps: { files: FileService; uploadMaxBytes: number }): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const base = `${API_BASE}/oss/file`;
  const { files, uploadMaxBytes } = deps;

  for (const url of [`${base}/upload-file`, `${base}/upload`]) {
    app.post(
      url,
      {
        schema: { querystring: uploadQuery, response: okSchema(uploadResult) },
        config: { permission: null, audit: ['file.upload'] },
      },
      async (request) => {
        const incoming = await readOne(request, uploadMaxBytes);
        const [result] = await files.store(
          requireAuth(request),
          incoming,
          request.query.purpose ?? 'document',
          auditContext(request),
        );
        if (!result) throw new AppError(400, ERROR_MESSAGES.noFile);
        return ok(result, '上传成功');
      },
    );
  }

  app.post(
    `${base}/upload-files`,
    {
      schema: { querystring: uploadQuery, response: okSchema(z.array(uploadResult)) },
      config: { permission: null, audit: ['file.upload'] },
    },
    async (request) => {
      const incoming = readMany(request, uploadMaxBytes);
      return ok(
        await files.store(requireAuth(request), incoming, request.query.purpose ?? 'document', auditContext(request)),
        '上传成功',
      );
    },
  );

  app.get(
    `${base}/preview/:id`,
    {
      schema: { params: fileIdParams, querystring: previewQuery, response: binaryResponse },
      config: { permission: null, queryToken: true, appCode: false },
    },
    async (request, reply) => {
      const { row, stream } = await files.open(requireAuth(request), request.params.id);
      const inline = isInlineType(row.contentType);
      // Nothing from an upload runs as a page of our origin: every file is sandboxed, only images are inline.
      return reply
        .header('content-security-policy', UPLOAD_CSP)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .header('content-disposition', contentDisposition(inline ? 'inline' : 'attachment', row.originalName))
        .header('content-length', String(row.size))
        .type(row.contentType)
        .send(stream);
    },
  );
}
