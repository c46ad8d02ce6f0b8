import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE } from '@registry/shared/constants';
import { z } from 'zod';
import {
  cohortCountRequest,
  cohortCountResponse,
  cohortRowsRequest,
  cohortRowsResponse,
  savedQueryCreateRequest,
  savedQueryIdRequest,
  savedQueryListResponse,
  savedQueryUpdateRequest,
  savedQueryVO,
} from '@registry/shared/contracts/retrieval';
import { PERMISSIONS } from '@registry/shared/permissions';
import { requireAuth } from '../../plugins/access';
import { auditContext, NOT_AUDITED } from '../../plugins/audit';
import { ok, okSchema } from '../../plugins/envelope';
import type { RetrievalService } from './retrieval.service';

/** Retrieval (`/retrieval`): cohort questions about the current project's patients. */
export function registerRetrievalRoutes(root: FastifyInstance, deps: { retrieval: RetrievalService }): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const base = `${API_BASE}/retrieval`;
  const { retrieval } = deps;

  app.post(
    `${base}/count`,
    {
      schema: { body: cohortCountRequest, response: okSchema(cohortCountResponse) },
      // a count of the caller's own scope: no patient data leaves, nothing is written
      config: { permission: PERMISSIONS.retrievalQuery, audit: NOT_AUDITED.read },
    },
    async (request) => ok(await retrieval.count(requireAuth(request), request.body.cohort)),
  );

  app.post(
    `${base}/rows`,
    {
      schema: { body: cohortRowsRequest, response: okSchema(cohortRowsResponse) },
      // identified rows (with patient.pii) are audited as patient.pii_read inside the read
      config: { permission: PERMISSIONS.retrievalQuery, audit: ['patient.pii_read'] },
    },
    async (request) => ok(await retrieval.rows(requireAuth(request), request.body, auditContext(request))),
  );

  // saved queries: the caller's own and those shared in the project; only the owner edits or deletes one
  const query = { permission: PERMISSIONS.retrievalQuery };
  app.get(
    `${base}/query/list`,
    { schema: { response: okSchema(savedQueryListResponse) }, config: query },
    async (request) => ok(await retrieval.listQueries(requireAuth(request))),
  );
  app.get(
    `${base}/query/detail`,
    { schema: { querystring: savedQueryIdRequest, response: okSchema(savedQueryVO) }, config: query },
    async (request) => ok(await retrieval.getQuery(requireAuth(request), request.query.id)),
  );
  app.post(
    `${base}/query`,
    {
      schema: { body: savedQueryCreateRequest, response: okSchema(savedQueryVO) },
      config: { ...query, audit: ['retrieval_query.create'] },
    },
    async (request) => ok(await retrieval.createQuery(requireAuth(request), request.body, auditContext(request))),
  );
  app.put(
    `${base}/query`,
    {
      schema: { body: savedQueryUpdateRequest, response: okSchema(savedQueryVO) },
      config: { ...query, audit: ['retrieval_query.update'] },
    },
    async (request) => ok(await retrieval.updateQuery(requireAuth(request), request.body, auditContext(request))),
  );
  app.post(
    `${base}/query/delete`,
    {
      schema: { body: savedQueryIdRequest, response: okSchema(z.null()) },
      config: { ...query, audit: ['retrieval_query.delete'] },
    },
    async (request) => {
      await retrieval.deleteQuery(requireAuth(request), request.body.id, auditContext(request));
      return ok(null);
    },
  );
}
