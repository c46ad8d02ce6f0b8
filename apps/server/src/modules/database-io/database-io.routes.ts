import type { MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE } from '@registry/shared/constants';
import { exportQuery, importResponse } from '@registry/shared/contracts/form-definition';
import { PERMISSIONS } from '@registry/shared/permissions';
import { AppError, ERROR_MESSAGES } from '../../lib/errors';
import { requireAuth } from '../../plugins/access';
import { auditContext } from '../../plugins/audit';
import { binaryResponse } from '../../plugins/binary';
import { ok, okSchema } from '../../plugins/envelope';
import type { DatabaseIoService, ExportFile } from './database-io.service';

/** The uploaded `file` part (size-limited by the multipart plugin: UPLOAD_MAX_BYTES). */
async function readFilePart(request: FastifyRequest): Promise<{ fileName: string; data: Buffer }> {
  if (!request.isMultipart()) throw new AppError(400, '请使用 multipart/form-data 上传文件');
  const part: MultipartFile | undefined = await request.file();
  if (!part || part.fieldname !== 'file') throw new AppError(400, ERROR_MESSAGES.noFile);
  return { fileName: part.filename, data: await part.toBuffer() };
}

function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

function download(reply: FastifyReply, file: ExportFile) {
  return reply
    .header('content-disposition', contentDisposition(file.fileName))
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .type(file.contentType)
    .send(file.body);
}

/**
 * Import and export of the current project's definition (`database.config`): imports parse and report (the page saves
 * the result as the draft through `PUT form-definition/draft`); exports are downloads, audited.
 */
export function registerDatabaseIoRoutes(root: FastifyInstance, deps: { io: DatabaseIoService }): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const base = `${API_BASE}/form-definition`;
  const { io } = deps;
  const designer = { permission: PERMISSIONS.databaseConfig };

  app.post(
    `${base}/import/excel`,
    { schema: { response: okSchema(importResponse) }, config: designer },
    async (request) => ok(await io.importExcel(requireAuth(request), await readFilePart(request)), '解析完成'),
  );

  app.post(
    `${base}/import/redcap`,
    { schema: { response: okSchema(importResponse) }, config: designer },
    async (request) => ok(await io.importRedcap(requireAuth(request), await readFilePart(request)), '解析完成'),
  );

  app.get(
    `${base}/export/excel`,
    { schema: { querystring: exportQuery, response: binaryResponse }, config: designer },
    async (request, reply) =>
      download(reply, await io.export(requireAuth(request), 'excel', request.query.versionId, auditContext(request))),
  );

  app.get(
    `${base}/export/odm`,
    { schema: { querystring: exportQuery, response: binaryResponse }, config: designer },
    async (request, reply) =>
      download(reply, await io.export(requireAuth(request), 'odm', request.query.versionId, auditContext(request))),
  );
}
