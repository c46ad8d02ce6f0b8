import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE } from '@registry/shared/constants';
import {
  supportAccessCreateRequest,
  supportAccessListResponse,
  supportAccessRevokeRequest,
} from '@registry/shared/contracts/support-access';
import { PERMISSIONS } from '@registry/shared/permissions';
import { requireAuth } from '../../plugins/access';
import { auditContext } from '../../plugins/audit';
import { ok, okSchema } from '../../plugins/envelope';
import type { SupportAccessService } from './support-access.service';

/** Support access of the system administrators, granted by the tenant's own administrator (`support.grant`). */
export function registerSupportAccessRoutes(root: FastifyInstance, deps: { support: SupportAccessService }): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const base = `${API_BASE}/support-access`;
  const config = { permission: PERMISSIONS.supportGrant };
  const { support } = deps;

  app.get(`${base}/list`, { schema: { response: okSchema(supportAccessListResponse) }, config }, async (request) =>
    ok(await support.list(requireAuth(request))),
  );
  app.post(
    base,
    {
      schema: { body: supportAccessCreateRequest, response: okSchema(supportAccessListResponse) },
      config: { ...config, audit: ['support.grant'] },
    },
    async (request) =>
      ok(await support.create(requireAuth(request), request.body, auditContext(request)), '已授予支持访问'),
  );
  app.post(
    `${base}/revoke`,
    {
      schema: { body: supportAccessRevokeRequest, response: okSchema(supportAccessListResponse) },
      config: { ...config, audit: ['support.revoke'] },
    },
    async (request) =>
      ok(await support.revoke(requireAuth(request), request.body.id, auditContext(request)), '已撤销支持访问'),
  );
}
