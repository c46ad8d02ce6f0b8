import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE } from '@registry/shared/constants';
import {
  discardDraftRequest,
  draftResponse,
  draftSaveRequest,
  draftSaveResponse,
  publishedResponse,
  publishedVersionQuery,
  publishedVersionResponse,
  publishPreviewResponse,
  publishRequest,
  publishResponse,
  recordCheckRequest,
  recordCheckResponse,
  versionDetailResponse,
  versionListResponse,
  versionQuery,
} from '@registry/shared/contracts/form-definition';
import { PERMISSIONS } from '@registry/shared/permissions';
import { requireAuth } from '../../plugins/access';
import { auditContext, NOT_AUDITED } from '../../plugins/audit';
import { ok, okSchema } from '../../plugins/envelope';
import type { DatabaseService } from './database.service';

/**
 * The current project's database (CRF definition): the designer's draft, publishing, versions (`database.config`);
 * the published definitions and the engine's verdict on a record (any member of the current project).
 */
export function registerDatabaseRoutes(root: FastifyInstance, deps: { database: DatabaseService }): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const base = `${API_BASE}/form-definition`;
  const { database } = deps;
  const designer = { permission: PERMISSIONS.databaseConfig };

  app.get(`${base}/draft`, { schema: { response: okSchema(draftResponse) }, config: designer }, async (request) =>
    ok(await database.getDraft(requireAuth(request))),
  );

  app.put(
    `${base}/draft`,
    // a 300-field definition is well under 1 MiB; REDCap imports of ~2,000 fields need more
    {
      schema: { body: draftSaveRequest, response: okSchema(draftSaveResponse) },
      config: { ...designer, audit: ['form_definition.save'] },
      bodyLimit: 8 * 1024 * 1024,
    },
    async (request) => ok(await database.saveDraft(requireAuth(request), request.body, auditContext(request))),
  );

  app.get(
    `${base}/publish-preview`,
    { schema: { response: okSchema(publishPreviewResponse) }, config: designer },
    async (request) => ok(await database.publishPreview(requireAuth(request))),
  );

  app.post(
    `${base}/publish`,
    {
      schema: { body: publishRequest, response: okSchema(publishResponse) },
      config: { ...designer, audit: ['form_definition.publish'] },
    },
    async (request) => ok(await database.publish(requireAuth(request), request.body, auditContext(request))),
  );

  app.get(
    `${base}/versions`,
    { schema: { response: okSchema(versionListResponse) }, config: designer },
    async (request) => ok(await database.versions(requireAuth(request))),
  );

  app.get(
    `${base}/version`,
    { schema: { querystring: versionQuery, response: okSchema(versionDetailResponse) }, config: designer },
    async (request) => ok(await database.version(requireAuth(request), request.query.id)),
  );

  app.post(
    `${base}/discard-draft`,
    {
      schema: { body: discardDraftRequest, response: okSchema(draftResponse) },
      config: { ...designer, audit: ['form_definition.discard'] },
    },
    async (request) =>
      ok(await database.discardDraft(requireAuth(request), request.body.revision, auditContext(request))),
  );

  app.get(
    `${base}/published`,
    { schema: { response: okSchema(publishedResponse) }, config: { permission: null } },
    async (request) => ok(await database.published(requireAuth(request))),
  );

  app.get(
    `${base}/published-version`,
    {
      schema: { querystring: publishedVersionQuery, response: okSchema(publishedVersionResponse) },
      config: { permission: null },
    },
    async (request) => ok(await database.publishedVersion(requireAuth(request), request.query.id)),
  );

  app.post(
    `${API_BASE}/form-record/check`,
    {
      schema: { body: recordCheckRequest, response: okSchema(recordCheckResponse) },
      config: { permission: null, audit: NOT_AUDITED.check },
    },
    async (request) => ok(await database.checkRecord(requireAuth(request), request.body)),
  );
}
