import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE } from '@registry/shared/constants';
import { importCommitResponse, importReport } from '@registry/shared/contracts/patient-import';
import { PERMISSIONS } from '@registry/shared/permissions';
import { requireAuth } from '../../plugins/access';
import { auditContext, NOT_AUDITED } from '../../plugins/audit';
import { binaryResponse } from '../../plugins/binary';
import { ok, okSchema } from '../../plugins/envelope';
import { readFilePart, sendDownload } from '../../plugins/file-transfer';
import type { PatientImportService } from './patient-import.service';

/** Answers may name patients and carry their data: never cached. */
const noStore = async (_request: FastifyRequest, reply: FastifyReply) => {
  reply.header('cache-control', 'no-store');
};

/** Patients and their CRF data from Excel (`/patient/list` → 导入): template, dry run, commit. */
export function registerPatientImportRoutes(root: FastifyInstance, deps: { imports: PatientImportService }): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const base = `${API_BASE}/patient-import`;
  const { imports } = deps;
  const access = { permission: PERMISSIONS.patientAdd };

  app.get(`${base}/template`, { schema: { response: binaryResponse }, config: access }, async (request, reply) =>
    sendDownload(reply, await imports.template(requireAuth(request))),
  );

  app.post(
    `${base}/dry-run`,
    {
      schema: { response: okSchema(importReport) },
      onRequest: noStore,
      config: { ...access, audit: NOT_AUDITED.check },
    },
    async (request) => ok(await imports.dryRun(requireAuth(request), await readFilePart(request)), '检查完成'),
  );

  app.post(
    `${base}/commit`,
    {
      schema: { response: okSchema(importCommitResponse) },
      onRequest: noStore,
      config: { ...access, audit: ['patient.import'] },
    },
    async (request) =>
      ok(await imports.commit(requireAuth(request), await readFilePart(request), auditContext(request)), '导入成功'),
  );
}
