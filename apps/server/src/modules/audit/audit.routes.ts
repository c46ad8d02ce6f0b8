import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE } from '@registry/shared/constants';
import { auditOptionsResponse, auditPageRequest, auditPageResponse } from '@registry/shared/contracts/audit';
import { PERMISSIONS } from '@registry/shared/permissions';
import { NOT_AUDITED } from '../../plugins/audit';
import { requireAuth } from '../../plugins/access';
import { ok, okSchema } from '../../plugins/envelope';
import type { AuditService } from './audit.service';

/** The audit-trail viewer: reading it is not itself audited (no PHI; values never hold password hashes or tokens). */
export function registerAuditRoutes(root: FastifyInstance, deps: { audit: AuditService }): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const base = `${API_BASE}/audit-event`;

  app.post(
    `${base}/page`,
    {
      schema: { body: auditPageRequest, response: okSchema(auditPageResponse) },
      config: { permission: PERMISSIONS.auditView, audit: NOT_AUDITED.read },
    },
    async (request) => ok(await deps.audit.page(requireAuth(request), request.body)),
  );

  app.get(
    `${base}/options`,
    { schema: { response: okSchema(auditOptionsResponse) }, config: { permission: PERMISSIONS.auditView } },
    async (request) => ok(await deps.audit.options(requireAuth(request))),
  );
}
