import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE } from '@registry/shared/constants';
import {
  contactCreateRequest,
  contactCreateResponse,
  followupSummaryResponse,
  patientDeathRequest,
  patientDeathResponse,
  patientTimelineQuery,
  patientTimelineResponse,
  taskActionResponse,
  taskAssignRequest,
  taskAssignResponse,
  taskCompleteRequest,
  taskCountsRequest,
  taskCountsResponse,
  taskDetailVO,
  taskExportRequest,
  taskFormSaveRequest,
  taskFormSaveResponse,
  taskIdQuery,
  taskLostRequest,
  taskPageRequest,
  taskPageResponse,
  taskReopenRequest,
} from '@registry/shared/contracts/followup';
import { PERMISSIONS } from '@registry/shared/permissions';
import { requireAuth } from '../../plugins/access';
import { auditContext, NOT_AUDITED } from '../../plugins/audit';
import { binaryResponse } from '../../plugins/binary';
import { ok, okSchema } from '../../plugins/envelope';
import { sendDownload } from '../../plugins/file-transfer';
import type { FollowupPatientService } from './followup-patient.service';
import type { FollowupRecordService } from './followup-record.service';
import type { FollowupTaskService } from './followup-task.service';

/** Every answer may carry patient data: never cached (errors too). */
const noStore = async (_request: FastifyRequest, reply: FastifyReply) => {
  reply.header('cache-control', 'no-store');
};

/**
 * The follow-up worklist (`/followup/list`), the record of one task (`/followup/edit`), the patient's timeline and
 * the home page's figures. Reads need `followup.list`, changes `followup.edit`.
 */
export function registerFollowupTaskRoutes(
  root: FastifyInstance,
  deps: {
    tasks: FollowupTaskService;
    followupRecords: FollowupRecordService;
    followupPatients: FollowupPatientService;
  },
): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const base = `${API_BASE}/followup`;
  const { tasks, followupRecords: records, followupPatients: patients } = deps;
  const list = { onRequest: noStore, config: { permission: PERMISSIONS.followupList } };
  const edit = { onRequest: noStore, config: { permission: PERMISSIONS.followupEdit } };

  app.post(
    `${base}/task/page`,
    {
      schema: { body: taskPageRequest, response: okSchema(taskPageResponse) },
      ...list,
      config: { ...list.config, audit: ['patient.pii_read'] },
    },
    async (request) => ok(await tasks.page(requireAuth(request), request.body, auditContext(request))),
  );

  app.post(
    `${base}/task/counts`,
    {
      schema: { body: taskCountsRequest, response: okSchema(taskCountsResponse) },
      ...list,
      config: { ...list.config, audit: NOT_AUDITED.read },
    },
    async (request) => ok(await tasks.counts(requireAuth(request), request.body)),
  );

  app.post(
    `${base}/task/assign`,
    {
      schema: { body: taskAssignRequest, response: okSchema(taskAssignResponse) },
      ...edit,
      config: { ...edit.config, audit: ['followup_task.assign'] },
    },
    async (request) => ok(await tasks.assign(requireAuth(request), request.body, auditContext(request)), '分配成功'),
  );

  app.post(
    `${base}/task/export`,
    {
      schema: { body: taskExportRequest, response: binaryResponse },
      ...list,
      config: { ...list.config, audit: ['followup_task.export'] },
    },
    async (request, reply) =>
      sendDownload(reply, await tasks.export(requireAuth(request), request.body, auditContext(request))),
  );

  app.get(
    `${base}/task/detail`,
    { schema: { querystring: taskIdQuery, response: okSchema(taskDetailVO) }, ...list },
    async (request) => ok(await records.detail(requireAuth(request), request.query.id, auditContext(request))),
  );

  app.post(
    `${base}/task/contact`,
    {
      schema: { body: contactCreateRequest, response: okSchema(contactCreateResponse) },
      ...edit,
      config: { ...edit.config, audit: ['followup_task.contact'] },
    },
    async (request) => ok(await records.contact(requireAuth(request), request.body, auditContext(request)), '已记录'),
  );

  app.post(
    `${base}/task/form/save`,
    {
      schema: { body: taskFormSaveRequest, response: okSchema(taskFormSaveResponse) },
      ...edit,
      config: { ...edit.config, audit: ['form_record.create', 'form_record.update', 'form_record.submit'] },
    },
    async (request) =>
      ok(await records.saveForm(requireAuth(request), request.body, auditContext(request)), '保存成功'),
  );

  app.post(
    `${base}/task/complete`,
    {
      schema: { body: taskCompleteRequest, response: okSchema(taskActionResponse) },
      ...edit,
      config: { ...edit.config, audit: ['followup_task.complete'] },
    },
    async (request) =>
      ok(await records.complete(requireAuth(request), request.body, auditContext(request)), '随访已完成'),
  );

  app.post(
    `${base}/task/reopen`,
    {
      schema: { body: taskReopenRequest, response: okSchema(taskActionResponse) },
      ...edit,
      config: { ...edit.config, audit: ['followup_task.reopen'] },
    },
    async (request) =>
      ok(await records.reopen(requireAuth(request), request.body, auditContext(request)), '已重新打开'),
  );

  app.post(
    `${base}/task/lost`,
    {
      schema: { body: taskLostRequest, response: okSchema(taskActionResponse) },
      ...edit,
      config: { ...edit.config, audit: ['followup_task.lost', 'patient.followup_lost'] },
    },
    async (request) => ok(await records.lost(requireAuth(request), request.body, auditContext(request)), '已标记失访'),
  );

  app.post(
    `${base}/patient/death`,
    {
      schema: { body: patientDeathRequest, response: okSchema(patientDeathResponse) },
      ...edit,
      config: { ...edit.config, audit: ['patient.death', 'followup_task.cancel'] },
    },
    async (request) =>
      ok(await patients.death(requireAuth(request), request.body, auditContext(request)), '已登记死亡'),
  );

  app.get(
    `${base}/patient/timeline`,
    { schema: { querystring: patientTimelineQuery, response: okSchema(patientTimelineResponse) }, ...list },
    async (request) =>
      ok(await patients.timeline(requireAuth(request), request.query.patientId, auditContext(request))),
  );

  app.get(`${base}/summary`, { schema: { response: okSchema(followupSummaryResponse) }, ...list }, async (request) =>
    ok(await tasks.summary(requireAuth(request))),
  );
}
