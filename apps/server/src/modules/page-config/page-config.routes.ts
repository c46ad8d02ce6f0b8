import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE } from '@registry/shared/constants';
import {
  pageConfigDeleteQuery,
  pageConfigQuery,
  pageConfigResponse,
  pageConfigSaveRequest,
} from '@registry/shared/contracts/page-config';
import { requireAuth } from '../../plugins/access';
import { auditContext } from '../../plugins/audit';
import { ok, okSchema } from '../../plugins/envelope';
import type { PageConfigService } from './page-config.service';

/** The caller's own saved table layouts (`page-config-custom`): any signed-in user, own rows only. */
export function registerPageConfigRoutes(root: FastifyInstance, deps: { pageConfigs: PageConfigService }): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const base = `${API_BASE}/page-config-custom`;
  const { pageConfigs } = deps;

  app.get(
    base,
    { schema: { querystring: pageConfigQuery, response: okSchema(pageConfigResponse) }, config: { permission: null } },
    async (request) => ok(await pageConfigs.get(requireAuth(request), request.query.pageKey)),
  );

  app.post(
    base,
    {
      schema: { body: pageConfigSaveRequest, response: okSchema(pageConfigResponse) },
      config: { permission: null, audit: ['page_config.save'] },
    },
    async (request) =>
      ok(
        await pageConfigs.save(requireAuth(request), request.body.pageKey, request.body.config, auditContext(request)),
      ),
  );

  app.delete(
    base,
    {
      schema: { querystring: pageConfigDeleteQuery, response: okSchema(pageConfigResponse) },
      config: { permission: null, audit: ['page_config.delete'] },
    },
    async (request) => ok(await pageConfigs.remove(requireAuth(request), request.query.pageKey, auditContext(request))),
  );
}
