import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE } from '@registry/shared/constants';
import {
  jobAdminVO,
  jobDetailQuery,
  jobIdRequest,
  jobListQuery,
  jobListResponse,
  jobStatusVO,
} from '@registry/shared/contracts/job';
import { PERMISSIONS } from '@registry/shared/permissions';
import { requireAuth } from '../../plugins/access';
import { auditContext } from '../../plugins/audit';
import { ok, okSchema } from '../../plugins/envelope';
import type { JobsService } from './jobs.service';

/**
 * Jobs: `job/*` for the signed-in user's own jobs (a page polls its export or import), `sys-job/*` for the platform
 * administrator (`tenant.manage`, the system tenant's role): every queue's jobs by state, retry a dead one, cancel.
 */
export function registerJobRoutes(root: FastifyInstance, deps: { jobs: JobsService }): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { jobs } = deps;
  const own = { permission: null };
  const admin = { permission: PERMISSIONS.tenantManage };

  app.get(
    `${API_BASE}/job/detail`,
    { schema: { querystring: jobDetailQuery, response: okSchema(jobStatusVO) }, config: own },
    async (request) => ok(await jobs.status(requireAuth(request), request.query.id)),
  );
  app.post(
    `${API_BASE}/job/cancel`,
    {
      schema: { body: jobIdRequest, response: okSchema(jobStatusVO) },
      config: { ...own, audit: ['job.cancel'] },
    },
    async (request) =>
      ok(await jobs.cancelOwn(requireAuth(request), request.body.id, auditContext(request)), '已取消任务'),
  );

  app.get(
    `${API_BASE}/sys-job/list`,
    { schema: { querystring: jobListQuery, response: okSchema(jobListResponse) }, config: admin },
    async (request) => ok({ items: await jobs.list(request.query) }),
  );
  app.post(
    `${API_BASE}/sys-job/retry`,
    { schema: { body: jobIdRequest, response: okSchema(jobAdminVO) }, config: { ...admin, audit: ['job.retry'] } },
    async (request) => ok(await jobs.retry(request.body.id, auditContext(request)), '已重新排队'),
  );
  app.post(
    `${API_BASE}/sys-job/cancel`,
    { schema: { body: jobIdRequest, response: okSchema(jobAdminVO) }, config: { ...admin, audit: ['job.cancel'] } },
    async (request) => ok(await jobs.cancel(request.body.id, auditContext(request)), '已取消任务'),
  );
}
