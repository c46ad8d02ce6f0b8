import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE } from '@registry/shared/constants';
import {
  assignmentAddRequest,
  assignmentAddResponse,
  assignmentPageRequest,
  assignmentPageResponse,
  assignmentRemoveRequest,
  countResponse,
  planApplyResponse,
  planCreateRequest,
  planDeleteQuery,
  planDeleteRequest,
  planIdQuery,
  planIdRequest,
  planListResponse,
  planStopRequest,
  planUpdateRequest,
  planVO,
} from '@registry/shared/contracts/followup';
import { PERMISSIONS } from '@registry/shared/permissions';
import { requireAuth } from '../../plugins/access';
import { auditContext, NOT_AUDITED } from '../../plugins/audit';
import { ok, okSchema } from '../../plugins/envelope';
import type { FollowupAssignmentService } from './followup-assignment.service';
import type { FollowupPlanService } from './followup-plan.service';

/** The assignment page names patients: never cached. */
const noStore = async (_request: FastifyRequest, reply: FastifyReply) => {
  reply.header('cache-control', 'no-store');
};

/** Follow-up plans and their patients (`/manage/followup`, `/manage/followup/config`, `/manage/fix-followup-plan`). */
export function registerFollowupPlanRoutes(
  root: FastifyInstance,
  deps: { plans: FollowupPlanService; assignments: FollowupAssignmentService },
): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const base = `${API_BASE}/followup`;
  const { plans, assignments } = deps;
  const list = { permission: PERMISSIONS.followupList };
  const config = { permission: PERMISSIONS.followupConfig };

  app.get(`${base}/plan/list`, { schema: { response: okSchema(planListResponse) }, config: list }, async (request) =>
    ok(await plans.list(requireAuth(request))),
  );

  app.get(
    `${base}/plan/detail`,
    { schema: { querystring: planIdQuery, response: okSchema(planVO) }, config: list },
    async (request) => ok(await plans.detail(requireAuth(request), request.query.id)),
  );

  app.post(
    `${base}/plan`,
    {
      schema: { body: planCreateRequest, response: okSchema(planVO) },
      config: { ...config, audit: ['followup_plan.create'] },
    },
    async (request) => ok(await plans.create(requireAuth(request), request.body, auditContext(request))),
  );

  app.put(
    `${base}/plan`,
    {
      schema: { body: planUpdateRequest, response: okSchema(planVO) },
      config: { ...config, audit: ['followup_plan.update'] },
    },
    async (request) => ok(await plans.update(requireAuth(request), request.body, auditContext(request))),
  );

  app.post(
    `${base}/plan/activate`,
    {
      schema: { body: planIdRequest, response: okSchema(planApplyResponse) },
      config: { ...config, audit: ['followup_plan.activate'] },
    },
    async (request) => ok(await plans.activate(requireAuth(request), request.body.id, auditContext(request))),
  );

  app.post(
    `${base}/plan/apply`,
    {
      schema: { body: planIdRequest, response: okSchema(planApplyResponse) },
      config: { ...config, audit: ['followup_plan.apply'] },
    },
    async (request) => ok(await plans.apply(requireAuth(request), request.body.id, auditContext(request))),
  );

  app.post(
    `${base}/plan/stop`,
    {
      schema: { body: planStopRequest, response: okSchema(countResponse) },
      config: { ...config, audit: ['followup_plan.stop'] },
    },
    async (request) => ok(await plans.stop(requireAuth(request), request.body, auditContext(request))),
  );

  app.post(
    `${base}/plan/delete`,
    {
      schema: { body: planDeleteRequest, response: okSchema(countResponse) },
      config: { ...config, audit: ['followup_plan.delete'] },
    },
    async (request) => ok(await plans.remove(requireAuth(request), request.body.id, auditContext(request))),
  );

  app.delete(
    `${base}/plan`,
    {
      schema: { querystring: planDeleteQuery, response: okSchema(countResponse) },
      config: { ...config, audit: ['followup_plan.delete'] },
    },
    async (request) => ok(await plans.remove(requireAuth(request), request.query.id, auditContext(request))),
  );

  app.post(
    `${base}/assignment/page`,
    {
      schema: { body: assignmentPageRequest, response: okSchema(assignmentPageResponse) },
      onRequest: noStore,
      config: { ...list, audit: NOT_AUDITED.read },
    },
    async (request) => ok(await assignments.assignmentPage(requireAuth(request), request.body)),
  );

  app.post(
    `${base}/assignment/add`,
    {
      schema: { body: assignmentAddRequest, response: okSchema(assignmentAddResponse) },
      config: { ...config, audit: ['followup_assignment.add'] },
    },
    async (request) => ok(await assignments.assignmentAdd(requireAuth(request), request.body, auditContext(request))),
  );

  app.post(
    `${base}/assignment/remove`,
    {
      schema: { body: assignmentRemoveRequest, response: okSchema(countResponse) },
      config: { ...config, audit: ['followup_assignment.remove'] },
    },
    async (request) =>
      ok(await assignments.assignmentRemove(requireAuth(request), request.body, auditContext(request))),
  );
}
