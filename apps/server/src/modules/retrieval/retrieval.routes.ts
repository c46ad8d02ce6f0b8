import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE } from '@registry/shared/constants';
import { cohortCountRequest, cohortCountResponse } from '@registry/shared/contracts/retrieval';
import { PERMISSIONS } from '@registry/shared/permissions';
import { requireAuth } from '../../plugins/access';
import { NOT_AUDITED } from '../../plugins/audit';
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
}
