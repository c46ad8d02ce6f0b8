import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE } from '@registry/shared/constants';
import { menuQuery, menuResponse } from '@registry/shared/contracts/auth';
import { requireAuth } from '../../plugins/access';
import { ok, okSchema } from '../../plugins/envelope';
import type { MenuService } from './menu.service';

export function registerMenuRoutes(root: FastifyInstance, deps: { menu: MenuService }): void {
  root
    .withTypeProvider<ZodTypeProvider>()
    .get(
      `${API_BASE}/auth/menu`,
      { schema: { querystring: menuQuery, response: okSchema(menuResponse) }, config: { permission: null } },
      async (request) => ok(await deps.menu.menu(requireAuth(request), request.query.groupCode)),
    );
}
