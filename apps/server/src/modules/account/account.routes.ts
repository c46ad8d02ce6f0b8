import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE } from '@registry/shared/constants';
import { changePasswordRequest, updateUserRequest, userInfo } from '@registry/shared/contracts/user';
import { requireAuth } from '../../plugins/access';
import { auditContext } from '../../plugins/audit';
import { nullData, ok, okSchema } from '../../plugins/envelope';
import type { AccountService } from './account.service';

export function registerAccountRoutes(root: FastifyInstance, deps: { users: AccountService }): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const base = `${API_BASE}/sys-user`;

  app.get(
    `${base}/user-info`,
    { schema: { response: okSchema(userInfo) }, config: { permission: null, initialPassword: true } },
    async (request) => ok(await deps.users.userInfo(requireAuth(request))),
  );

  app.put(
    base,
    {
      schema: { body: updateUserRequest, response: okSchema(userInfo) },
      config: { permission: null, audit: ['user.update'] },
    },
    async (request) => ok(await deps.users.updateSelf(requireAuth(request), request.body, auditContext(request))),
  );

  app.post(
    `${base}/change-pwd`,
    {
      schema: { body: changePasswordRequest, response: okSchema(nullData) },
      config: { permission: null, initialPassword: true, audit: ['user.password.set', 'user.password.change'] },
    },
    async (request) =>
      ok(null, await deps.users.changePassword(requireAuth(request), request.body, auditContext(request))),
  );
}
