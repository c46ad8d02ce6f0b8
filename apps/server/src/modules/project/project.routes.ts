import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE } from '@registry/shared/constants';
import {
  currentProject,
  projectChangeQuery,
  projectCount,
  projectListParams,
  projectListRequest,
  projectListResponse,
} from '@registry/shared/contracts/project';
import { PERMISSIONS } from '@registry/shared/permissions';
import { requireAuth } from '../../plugins/access';
import { auditContext, NOT_AUDITED } from '../../plugins/audit';
import { ok, okSchema } from '../../plugins/envelope';
import type { ProjectService } from './project.service';

export function registerProjectRoutes(root: FastifyInstance, deps: { projects: ProjectService }): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const base = `${API_BASE}/web-project`;
  const { projects } = deps;

  app.post(
    `${base}/list`,
    {
      schema: { body: projectListRequest, response: okSchema(projectListResponse) },
      config: { permission: PERMISSIONS.projectList, audit: NOT_AUDITED.read },
    },
    async (request) => ok(await projects.list(requireAuth(request), 'all', request.body?.keyword)),
  );

  app.post(
    `${base}/list/:scope`,
    {
      schema: { params: projectListParams, body: projectListRequest, response: okSchema(projectListResponse) },
      config: { permission: PERMISSIONS.projectList, audit: NOT_AUDITED.read },
    },
    async (request) =>
      ok(await projects.list(requireAuth(request), request.params.scope ?? 'all', request.body?.keyword)),
  );

  app.get(
    `${base}/count`,
    { schema: { response: okSchema(projectCount) }, config: { permission: PERMISSIONS.projectList } },
    async (request) => ok(await projects.count(requireAuth(request))),
  );

  app.get(
    `${base}/change`,
    { schema: { querystring: projectChangeQuery, response: okSchema(currentProject) }, config: { permission: null } },
    async (request) => ok(await projects.enter(requireAuth(request), request.query.projectId, auditContext(request))),
  );

  app.get(
    `${base}/current`,
    { schema: { response: okSchema(currentProject) }, config: { permission: null } },
    async (request) => ok(await projects.current(requireAuth(request))),
  );
}
