import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE } from '@registry/shared/constants';
import { exportQuery, importResponse } from '@registry/shared/contracts/form-definition';
import { PERMISSIONS } from '@registry/shared/permissions';
import { requireAuth } from '../../plugins/access';
import { auditContext, NOT_AUDITED } from '../../plugins/audit';
import { binaryResponse } from '../../plugins/binary';
import { ok, okSchema } from '../../plugins/envelope';
import { readFilePart, sendDownload } from '../../plugins/file-transfer';
import type { DatabaseIoService, ExportFile } from './database-io.service';

const download = (reply: FastifyReply, file: ExportFile) => sendDownload(reply, file);

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
    { schema: { response: okSchema(importResponse) }, config: { ...designer, audit: NOT_AUDITED.check } },
    async (request) => ok(await io.importExcel(requireAuth(request), await readFilePart(request)), '解析完成'),
  );

  app.post(
    `${base}/import/redcap`,
    { schema: { response: okSchema(importResponse) }, config: { ...designer, audit: NOT_AUDITED.check } },
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
