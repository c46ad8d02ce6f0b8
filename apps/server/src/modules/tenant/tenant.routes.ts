import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE } from '@registry/shared/constants';
import { page } from '@registry/shared/contracts/envelope';
import {
  tenantCreateRequest,
  tenantCreateResponse,
  tenantPageQuery,
  tenantVO,
} from '@registry/shared/contracts/tenant';
import { PERMISSIONS } from '@registry/shared/permissions';
import { requireAuth } from '../../plugins/access';
import { auditContext } from '../../plugins/audit';
import { ok, okSchema } from '../../plugins/envelope';
import type { TenantService } from './tenant.service';

/** Tenant management for system administrators (`tenant.manage`, home tenant `sys`). */
export function registerTenantRoutes(root: FastifyInstance, deps: { tenants: TenantService }): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const base = `${API_BASE}/sys-tenant`;
  const config = { permission: PERMISSIONS.tenantManage };
  const { tenants } = deps;

  app.get(
    `${base}/page`,
    { schema: { querystring: tenantPageQuery, response: okSchema(page(tenantVO)) }, config },
    async (request) => ok(await tenants.page(requireAuth(request), request.query)),
  );
  app.post(
    base,
    {
      schema: { body: tenantCreateRequest, response: okSchema(tenantCreateResponse) },
      config: { ...config, audit: ['tenant.create'] },
    },
    async (request) => ok(await tenants.create(requireAuth(request), request.body, auditContext(request))),
  );
}
