import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE } from '@registry/shared/constants';
import { page } from '@registry/shared/contracts/envelope';
import {
  joinRequestApprove,
  joinRequestCreate,
  joinRequestMineResponse,
  joinRequestOptions,
  joinRequestOptionsQuery,
  joinRequestPageRequest,
  joinRequestRefuse,
  joinRequestVO,
} from '@registry/shared/contracts/join-request';
import {
  organisationCreateRequest,
  organisationListQuery,
  organisationListResponse,
  organisationOption,
} from '@registry/shared/contracts/organisation';
import {
  projectCreateRequest,
  projectStatusRequest,
  projectUpdateRequest,
  projectVO,
  searchForJoinRequest,
  searchForJoinResponse,
  tenantDoctorsResponse,
} from '@registry/shared/contracts/project';
import { PERMISSIONS } from '@registry/shared/permissions';
import { requireAuth } from '../../plugins/access';
import { auditContext, NOT_AUDITED } from '../../plugins/audit';
import { ok, okSchema } from '../../plugins/envelope';
import type { ProjectManageService } from './project-manage.service';

/**
 * Project management. Access: the route's permission is checked by the access hook; the per-project right
 * (owner, `permission.manage`) by the service from the session's memberships.
 */
export function registerProjectManageRoutes(root: FastifyInstance, deps: { manage: ProjectManageService }): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const base = `${API_BASE}/web-project`;
  const { manage } = deps;

  app.post(
    base,
    {
      schema: { body: projectCreateRequest, response: okSchema(projectVO) },
      config: { permission: null, audit: ['project.create'] },
    },
    async (request) => ok(await manage.create(requireAuth(request), request.body, auditContext(request))),
  );

  app.put(
    base,
    {
      schema: { body: projectUpdateRequest, response: okSchema(projectVO) },
      config: { permission: null, audit: ['project.update'] },
    },
    async (request) => ok(await manage.update(requireAuth(request), request.body, auditContext(request))),
  );

  app.post(
    `${base}/status`,
    {
      schema: { body: projectStatusRequest, response: okSchema(projectVO) },
      config: { permission: null, audit: ['project.archive', 'project.restore', 'project.status'] },
    },
    async (request) => ok(await manage.changeStatus(requireAuth(request), request.body, auditContext(request))),
  );

  app.post(
    `${base}/search4join`,
    {
      schema: { body: searchForJoinRequest, response: okSchema(searchForJoinResponse) },
      config: { permission: PERMISSIONS.projectList, audit: NOT_AUDITED.read },
    },
    async (request) => ok(await manage.searchForJoin(requireAuth(request), request.body.keyword)),
  );

  app.post(
    `${base}/join-request`,
    {
      schema: { body: joinRequestCreate, response: okSchema(joinRequestVO) },
      config: { permission: PERMISSIONS.projectList, audit: ['join-request.create'] },
    },
    async (request) => ok(await manage.requestJoin(requireAuth(request), request.body, auditContext(request))),
  );

  app.get(
    `${base}/join-request/mine`,
    { schema: { response: okSchema(joinRequestMineResponse) }, config: { permission: null } },
    async (request) => ok(await manage.myJoinRequests(requireAuth(request))),
  );

  app.post(
    `${base}/join-request/page`,
    {
      schema: { body: joinRequestPageRequest, response: okSchema(page(joinRequestVO)) },
      config: { permission: null, audit: NOT_AUDITED.read },
    },
    async (request) => ok(await manage.pageJoinRequests(requireAuth(request), request.body)),
  );

  app.post(
    `${base}/join-request/approve`,
    {
      schema: { body: joinRequestApprove, response: okSchema(joinRequestVO) },
      config: { permission: null, audit: ['join-request.approve'] },
    },
    async (request) => ok(await manage.approve(requireAuth(request), request.body, auditContext(request))),
  );

  app.get(
    `${base}/join-request/options`,
    {
      schema: { querystring: joinRequestOptionsQuery, response: okSchema(joinRequestOptions) },
      config: { permission: null },
    },
    async (request) => ok(await manage.approvalOptions(requireAuth(request), request.query.id)),
  );

  app.post(
    `${base}/join-request/refuse`,
    {
      schema: { body: joinRequestRefuse, response: okSchema(joinRequestVO) },
      config: { permission: null, audit: ['join-request.refuse'] },
    },
    async (request) => ok(await manage.refuse(requireAuth(request), request.body, auditContext(request))),
  );

  app.get(
    `${base}/org-list`,
    {
      schema: { querystring: organisationListQuery, response: okSchema(organisationListResponse) },
      config: { permission: null },
    },
    async (request) => ok(await manage.organisations(requireAuth(request), request.query.keyword)),
  );

  app.post(
    `${base}/org`,
    {
      schema: { body: organisationCreateRequest, response: okSchema(organisationOption) },
      config: { permission: PERMISSIONS.centerManage, audit: ['organisation.create'] },
    },
    async (request) => ok(await manage.addOrganisation(requireAuth(request), request.body.name, auditContext(request))),
  );

  app.get(
    `${base}/current-project-tenant-doctors`,
    { schema: { response: okSchema(tenantDoctorsResponse) }, config: { permission: null } },
    async (request) => ok(await manage.tenantDoctors(requireAuth(request))),
  );
}
