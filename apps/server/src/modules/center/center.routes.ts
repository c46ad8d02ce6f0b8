import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE } from '@registry/shared/constants';
import {
  centerCreateRequest,
  centerIdRequest,
  centerListQuery,
  centerListResponse,
  centerUpdateRequest,
  centerVO,
} from '@registry/shared/contracts/center';
import { PERMISSIONS } from '@registry/shared/permissions';
import { requireAuth } from '../../plugins/access';
import { auditContext } from '../../plugins/audit';
import { ok, okSchema } from '../../plugins/envelope';
import type { CenterService } from './center.service';

/** Centers of the current project (`/manage/sub-center`). */
export function registerCenterRoutes(root: FastifyInstance, deps: { centers: CenterService }): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const base = `${API_BASE}/project-center`;
  const { centers } = deps;

  app.get(
    `${base}/list`,
    { schema: { querystring: centerListQuery, response: okSchema(centerListResponse) }, config: { permission: null } },
    async (request) => ok(await centers.list(requireAuth(request), request.query.status)),
  );

  app.post(
    base,
    {
      schema: { body: centerCreateRequest, response: okSchema(centerVO) },
      config: { permission: PERMISSIONS.centerManage, audit: ['center.create'] },
    },
    async (request) => ok(await centers.create(requireAuth(request), request.body, auditContext(request))),
  );

  app.put(
    base,
    {
      schema: { body: centerUpdateRequest, response: okSchema(centerVO) },
      config: { permission: PERMISSIONS.centerManage, audit: ['center.update'] },
    },
    async (request) => ok(await centers.update(requireAuth(request), request.body, auditContext(request))),
  );

  app.post(
    `${base}/close`,
    {
      schema: { body: centerIdRequest, response: okSchema(centerVO) },
      config: { permission: PERMISSIONS.centerManage, audit: ['center.close'] },
    },
    async (request) =>
      ok(await centers.setStatus(requireAuth(request), request.body.id, 'closed', auditContext(request))),
  );

  app.post(
    `${base}/reopen`,
    {
      schema: { body: centerIdRequest, response: okSchema(centerVO) },
      config: { permission: PERMISSIONS.centerManage, audit: ['center.reopen'] },
    },
    async (request) =>
      ok(await centers.setStatus(requireAuth(request), request.body.id, 'active', auditContext(request))),
  );
}
