import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE } from '@registry/shared/constants';
import {
  formRecordVO,
  patientRecordsParams,
  patientRecordsResponse,
  queryAnswerRequest,
  queryCloseRequest,
  queryCreateRequest,
  queryPageRequest,
  queryPageResponse,
  queryResponse,
  recordDeleteBody,
  recordDeleteQuery,
  recordDeleteResponse,
  recordDetailQuery,
  recordHistoryQuery,
  recordHistoryResponse,
  recordSaveRequest,
  recordSaveResponse,
  recordStatusRequest,
  recordStatusResponse,
  sdvRequest,
  sdvResponse,
} from '@registry/shared/contracts/form-record';
import { PERMISSIONS } from '@registry/shared/permissions';
import { requireAuth } from '../../plugins/access';
import { auditContext, NOT_AUDITED, type RouteAudit } from '../../plugins/audit';
import { ok, okSchema } from '../../plugins/envelope';
import {
  migrationApplyRequest,
  migrationApplyResponse,
  migrationPreviewRequest,
  migrationPreviewResponse,
} from '@registry/shared/contracts/record-migration';
import type { DataQueryService } from './data-query.service';
import type { PatientRecordService } from './patient-record.service';
import type { RecordHistoryService } from './record-history.service';
import type { RecordMigrationService } from './record-migration.service';

/** Every answer may carry patient data: never cached (errors too). */
const noStore = async (_request: FastifyRequest, reply: FastifyReply) => {
  reply.header('cache-control', 'no-store');
};

/**
 * CRF records of the current project's patients (`/patient/edit`, `/patient/file`, `/patient/source`). The status
 * call is open to `patient.list` holders and checks the action's own code (`patient.sdv` for verify, `patient.lock`
 * for lock and unlock) in the service, with the access hook's 403.
 */
export function registerPatientRecordRoutes(
  root: FastifyInstance,
  deps: {
    records: PatientRecordService;
    history: RecordHistoryService;
    queries: DataQueryService;
    migration: RecordMigrationService;
  },
): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const base = `${API_BASE}/form-record`;
  const { records, history, queries, migration } = deps;
  const access = (permission: string, audit?: RouteAudit) => ({ onRequest: noStore, config: { permission, audit } });

  app.get(
    `${base}/patient/:patientId`,
    {
      schema: { params: patientRecordsParams, response: okSchema(patientRecordsResponse) },
      ...access(PERMISSIONS.patientList),
    },
    async (request) => ok(await records.patientRecords(requireAuth(request), request.params.patientId)),
  );

  app.get(
    `${base}/detail`,
    {
      schema: { querystring: recordDetailQuery, response: okSchema(formRecordVO) },
      ...access(PERMISSIONS.patientList),
    },
    async (request) => ok(await records.detail(requireAuth(request), request.query, auditContext(request))),
  );

  app.post(
    `${base}/save`,
    {
      schema: { body: recordSaveRequest, response: okSchema(recordSaveResponse) },
      ...access(PERMISSIONS.patientEdit, ['form_record.create', 'form_record.update', 'form_record.submit']),
    },
    async (request) => ok(await records.save(requireAuth(request), request.body, auditContext(request))),
  );

  app.post(
    `${base}/status`,
    {
      schema: { body: recordStatusRequest, response: okSchema(recordStatusResponse) },
      ...access(PERMISSIONS.patientList, ['form_record.verify', 'form_record.lock', 'form_record.unlock']),
    },
    async (request) => ok(await records.changeStatus(requireAuth(request), request.body, auditContext(request))),
  );

  app.delete(
    base,
    {
      schema: { querystring: recordDeleteQuery, body: recordDeleteBody, response: okSchema(recordDeleteResponse) },
      ...access(PERMISSIONS.patientEdit, ['form_record.delete']),
    },
    async (request) =>
      ok(
        await records.remove(
          requireAuth(request),
          { id: request.query.id, reason: request.body.reason },
          auditContext(request),
        ),
      ),
  );

  app.get(
    `${base}/history`,
    {
      schema: { querystring: recordHistoryQuery, response: okSchema(recordHistoryResponse) },
      ...access(PERMISSIONS.patientList),
    },
    async (request) => ok(await history.history(requireAuth(request), request.query, auditContext(request))),
  );

  app.post(
    `${base}/sdv`,
    {
      schema: { body: sdvRequest, response: okSchema(sdvResponse) },
      ...access(PERMISSIONS.patientSdv, ['form_record.sdv']),
    },
    async (request) => ok(await history.sdv(requireAuth(request), request.body, auditContext(request))),
  );

  app.post(
    `${base}/query`,
    {
      schema: { body: queryCreateRequest, response: okSchema(queryResponse) },
      ...access(PERMISSIONS.patientQuery, ['data_query.create']),
    },
    async (request) => ok(await queries.raiseQuery(requireAuth(request), request.body, auditContext(request))),
  );

  app.post(
    `${base}/query/page`,
    {
      schema: { body: queryPageRequest, response: okSchema(queryPageResponse) },
      ...access(PERMISSIONS.patientList, NOT_AUDITED.read),
    },
    async (request) => ok(await queries.queryPage(requireAuth(request), request.body)),
  );

  app.post(
    `${base}/query/answer`,
    {
      schema: { body: queryAnswerRequest, response: okSchema(queryResponse) },
      ...access(PERMISSIONS.patientEdit, ['data_query.answer']),
    },
    async (request) => ok(await queries.answerQuery(requireAuth(request), request.body, auditContext(request))),
  );

  app.post(
    `${base}/query/close`,
    {
      schema: { body: queryCloseRequest, response: okSchema(queryResponse) },
      ...access(PERMISSIONS.patientQuery, ['data_query.close']),
    },
    async (request) => ok(await queries.closeQuery(requireAuth(request), request.body, auditContext(request))),
  );

  app.post(
    `${base}/migration/preview`,
    {
      schema: { body: migrationPreviewRequest, response: okSchema(migrationPreviewResponse) },
      ...access(PERMISSIONS.patientEdit, NOT_AUDITED.read),
    },
    async (request) => ok(await migration.preview(requireAuth(request), request.body)),
  );

  app.post(
    `${base}/migration/apply`,
    {
      schema: { body: migrationApplyRequest, response: okSchema(migrationApplyResponse) },
      ...access(PERMISSIONS.patientEdit, ['form_record.migrate']),
    },
    async (request) => ok(await migration.apply(requireAuth(request), request.body, auditContext(request)), '迁移完成'),
  );
}
