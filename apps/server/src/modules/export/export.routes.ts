import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE } from '@registry/shared/constants';
import {
  exportCreateRequest,
  exportIdQuery,
  exportIdRequest,
  exportJobVO,
  exportListQuery,
  exportListResponse,
} from '@registry/shared/contracts/export';
import { PERMISSIONS } from '@registry/shared/permissions';
import { requireAuth } from '../../plugins/access';
import { auditContext } from '../../plugins/audit';
import { ok, okSchema } from '../../plugins/envelope';
import { binaryResponse } from '../../plugins/binary';
import { sendDownload } from '../../plugins/file-transfer';
import type { ExportService } from './export.service';

/**
 * Data exports (`/retrieval/export`, issue 15): start one, the project's history, one export's progress, cancel,
 * download. `retrieval.export` (the page's code); identified exports also need `patient.export` and `patient.pii`
 * (checked by the service).
 */
export function registerExportRoutes(root: FastifyInstance, deps: { exports: ExportService }): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const base = `${API_BASE}/retrieval/export`;
  const { exports } = deps;
  const permission = PERMISSIONS.retrievalExport;

  app.post(
    base,
    {
      schema: { body: exportCreateRequest, response: okSchema(exportJobVO) },
      config: { permission, audit: ['export.create'] },
    },
    async (request) => ok(await exports.create(requireAuth(request), request.body, auditContext(request))),
  );
  app.get(
    `${base}/list`,
    { schema: { querystring: exportListQuery, response: okSchema(exportListResponse) }, config: { permission } },
    async (request) => ok(await exports.list(requireAuth(request), request.query)),
  );
  app.get(
    `${base}/detail`,
    { schema: { querystring: exportIdQuery, response: okSchema(exportJobVO) }, config: { permission } },
    async (request) => ok(await exports.detail(requireAuth(request), request.query.id)),
  );
  app.post(
    `${base}/cancel`,
    {
      schema: { body: exportIdRequest, response: okSchema(exportJobVO) },
      config: { permission, audit: ['export.cancel'] },
    },
    async (request) => ok(await exports.cancel(requireAuth(request), request.body.id, auditContext(request))),
  );
  app.get(
    `${base}/download`,
    { schema: { querystring: exportIdQuery, response: binaryResponse }, config: { permission } },
    async (request, reply) => {
      const file = await exports.download(requireAuth(request), request.query.id, auditContext(request));
      return sendDownload(reply, {
        fileName: file.fileName,
        contentType: file.contentType ?? 'application/octet-stream',
        body: file.stream,
        size: file.size,
      });
    },
  );
}
