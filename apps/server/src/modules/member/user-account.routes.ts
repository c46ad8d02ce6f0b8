import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_BASE } from '@registry/shared/constants';
import { page } from '@registry/shared/contracts/envelope';
import { tenantUserPageRequest, tenantUserVO, userIdRequest } from '@registry/shared/contracts/user';
import { PERMISSIONS } from '@registry/shared/permissions';
import { requireAuth } from '../../plugins/access';
import { auditContext, NOT_AUDITED } from '../../plugins/audit';
import { ok, okSchema } from '../../plugins/envelope';
import type { UserAccountService } from './user-account.service';

/** The acting tenant's accounts: page, disable, enable (`user.manage`). */
export function registerUserAccountRoutes(root: FastifyInstance, deps: { accounts: UserAccountService }): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const base = `${API_BASE}/sys-user`;
  const config = { permission: PERMISSIONS.userManage };
  const { accounts } = deps;

  app.post(
    `${base}/page`,
    {
      schema: { body: tenantUserPageRequest, response: okSchema(page(tenantUserVO)) },
      config: { ...config, audit: NOT_AUDITED.read },
    },
    async (request) => ok(await accounts.page(requireAuth(request), request.body)),
  );
  app.post(
    `${base}/disable`,
    { schema: { body: userIdRequest, response: okSchema(z.null()) }, config: { ...config, audit: ['user.disable'] } },
    async (request) =>
      ok(await accounts.setDisabled(requireAuth(request), request.body.userId, true, auditContext(request))),
  );
  app.post(
    `${base}/enable`,
    { schema: { body: userIdRequest, response: okSchema(z.null()) }, config: { ...config, audit: ['user.enable'] } },
    async (request) =>
      ok(await accounts.setDisabled(requireAuth(request), request.body.userId, false, auditContext(request))),
  );
}
