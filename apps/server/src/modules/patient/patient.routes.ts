import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE } from '@registry/shared/constants';
import {
  patientCreateRequest,
  patientDeleteBody,
  patientDeleteQuery,
  patientDeleteResponse,
  patientIdParams,
  patientPageRequest,
  patientPageResponse,
  patientUpdateRequest,
  patientVO,
} from '@registry/shared/contracts/patient';
import { PERMISSIONS } from '@registry/shared/permissions';
import { requireAuth } from '../../plugins/access';
import { auditContext } from '../../plugins/audit';
import { ok, okSchema } from '../../plugins/envelope';
import type { PatientService } from './patient.service';

/** Every answer of these calls may carry patient data: never cached (errors too, they may name a patient number). */
const noStore = async (_request: FastifyRequest, reply: FastifyReply) => {
  reply.header('cache-control', 'no-store');
};

/** Patients of the current project (`/patient/list`, `/patient/add`, `/patient/edit`). */
export function registerPatientRoutes(root: FastifyInstance, deps: { patients: PatientService }): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const base = `${API_BASE}/patient-info`;
  const { patients } = deps;

  app.post(
    `${base}/page`,
    {
      schema: { body: patientPageRequest, response: okSchema(patientPageResponse) },
      onRequest: noStore,
      config: { permission: PERMISSIONS.patientList, audit: ['patient.pii_read'] },
    },
    async (request) => ok(await patients.page(requireAuth(request), request.body, auditContext(request))),
  );

  app.get(
    `${base}/:id`,
    {
      schema: { params: patientIdParams, response: okSchema(patientVO) },
      onRequest: noStore,
      config: { permission: PERMISSIONS.patientList },
    },
    async (request) => ok(await patients.get(requireAuth(request), request.params.id, auditContext(request))),
  );

  app.post(
    base,
    {
      schema: { body: patientCreateRequest, response: okSchema(patientVO) },
      onRequest: noStore,
      config: { permission: PERMISSIONS.patientAdd, audit: ['patient.create'] },
    },
    async (request) => ok(await patients.create(requireAuth(request), request.body, auditContext(request))),
  );

  app.put(
    base,
    {
      schema: { body: patientUpdateRequest, response: okSchema(patientVO) },
      onRequest: noStore,
      config: { permission: PERMISSIONS.patientEdit, audit: ['patient.update'] },
    },
    async (request) => ok(await patients.update(requireAuth(request), request.body, auditContext(request))),
  );

  app.delete(
    base,
    {
      schema: { querystring: patientDeleteQuery, body: patientDeleteBody, response: okSchema(patientDeleteResponse) },
      onRequest: noStore,
      config: { permission: PERMISSIONS.patientDelete, audit: ['patient.delete'] },
    },
    async (request) => {
      const reason = request.body.reason ?? request.query.reason;
      return ok(await patients.remove(requireAuth(request), request.query.ids, reason, auditContext(request)));
    },
  );
}
