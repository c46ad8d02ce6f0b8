import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_BASE } from '@registry/shared/constants';
import { page } from '@registry/shared/contracts/envelope';
import {
  memberAccountRequest,
  memberAccountResponse,
  memberAddRequest,
  memberDeleteQuery,
  memberPageRequest,
  memberUpdateRequest,
  memberVO,
} from '@registry/shared/contracts/member';
import {
  roleCreateRequest,
  roleDeleteQuery,
  roleListResponse,
  roleUpdateRequest,
  roleVO,
} from '@registry/shared/contracts/role';
import { PERMISSIONS } from '@registry/shared/permissions';
import { requireAuth } from '../../plugins/access';
import { auditContext, NOT_AUDITED } from '../../plugins/audit';
import { ok, okSchema } from '../../plugins/envelope';
import type { MemberService } from './member.service';
import type { RoleService } from './role.service';

const manage = { permission: PERMISSIONS.permissionManage };

/** Roles and members of the current project (`/manage/permissions`). */
export function registerMemberRoutes(
  root: FastifyInstance,
  deps: { roles: RoleService; members: MemberService },
): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const roleBase = `${API_BASE}/project-role`;
  const memberBase = `${API_BASE}/project-member`;
  const { roles, members } = deps;

  app.get(
    `${roleBase}/list`,
    { schema: { response: okSchema(roleListResponse) }, config: { permission: null } },
    async (request) => ok(await roles.list(requireAuth(request))),
  );
  app.post(
    roleBase,
    { schema: { body: roleCreateRequest, response: okSchema(roleVO) }, config: { ...manage, audit: ['role.create'] } },
    async (request) => ok(await roles.create(requireAuth(request), request.body, auditContext(request))),
  );
  app.put(
    roleBase,
    { schema: { body: roleUpdateRequest, response: okSchema(roleVO) }, config: { ...manage, audit: ['role.update'] } },
    async (request) => ok(await roles.update(requireAuth(request), request.body, auditContext(request))),
  );
  app.delete(
    roleBase,
    {
      schema: { querystring: roleDeleteQuery, response: okSchema(z.null()) },
      config: { ...manage, audit: ['role.delete'] },
    },
    async (request) => ok(await roles.remove(requireAuth(request), request.query.id, auditContext(request))),
  );

  app.post(
    `${memberBase}/page`,
    {
      schema: { body: memberPageRequest, response: okSchema(page(memberVO)) },
      config: { ...manage, audit: NOT_AUDITED.read },
    },
    async (request) => ok(await members.page(requireAuth(request), request.body)),
  );
  app.post(
    memberBase,
    { schema: { body: memberAddRequest, response: okSchema(memberVO) }, config: { ...manage, audit: ['member.add'] } },
    async (request) => ok(await members.add(requireAuth(request), request.body, auditContext(request))),
  );
  app.post(
    `${memberBase}/account`,
    {
      schema: { body: memberAccountRequest, response: okSchema(memberAccountResponse) },
      config: { ...manage, audit: ['user.create', 'member.add'] },
    },
    async (request) => ok(await members.createAccount(requireAuth(request), request.body, auditContext(request))),
  );
  app.put(
    memberBase,
    {
      schema: { body: memberUpdateRequest, response: okSchema(memberVO) },
      config: { ...manage, audit: ['member.update'] },
    },
    async (request) => ok(await members.update(requireAuth(request), request.body, auditContext(request))),
  );
  app.delete(
    memberBase,
    {
      schema: { querystring: memberDeleteQuery, response: okSchema(z.null()) },
      config: { ...manage, audit: ['member.remove'] },
    },
    async (request) => ok(await members.remove(requireAuth(request), request.query.id, auditContext(request))),
  );
}
