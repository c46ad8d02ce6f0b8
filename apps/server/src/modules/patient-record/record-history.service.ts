import type { z } from 'zod';
import type { RecordHistoryResponse, recordHistoryQuery, sdvRequest } from '@registry/shared/contracts/form-record';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { audit, type AuditContext } from '../../plugins/audit';
import type { AuthContext } from '../auth/session.service';
import { requireProjectScope } from '../../domain/scope/project-scope';
import type { DefinitionCache } from '../../domain/crf/definition-cache';
import { RECORD_MESSAGES as M } from './patient-record.messages';
import { presentQuery, presentValueVersion } from './patient-record.presenter';
import { listQueries } from './data-query.repository';
import { insertSdvMarks, latestVersionsOf, listValueVersions } from './record-history.repository';
import { createRecordContext } from './record-context';
import { isPhiPath, phiKeys } from './record-data';

type HistoryInput = z.output<typeof recordHistoryQuery>;
type SdvInput = z.output<typeof sdvRequest>;

export type RecordHistoryService = ReturnType<typeof createRecordHistoryService>;

/** A record's value versions with their SDV marks and queries (`form-record/history`), and SDV itself. */
export function createRecordHistoryService(deps: { db: Db; clock: Clock; definitions?: DefinitionCache }) {
  const { db, clock } = deps;
  const { hasPii, visibleRecord, formOfRecord, auditPiiRead } = createRecordContext(deps);

  return {
    /** Versions of one data point or of the whole record, newest first, with SDV marks and queries. */
    async history(auth: AuthContext, q: HistoryInput, auditCtx: AuditContext): Promise<RecordHistoryResponse> {
      const scope = await requireProjectScope(db, auth);
      const row = await visibleRecord(scope, q.recordId);
      const { form } = await formOfRecord(scope.tenantId, row);
      const pii = hasPii(scope);
      const filter = {
        recordId: row.id,
        ...(q.path !== undefined ? { path: q.path } : {}),
        ...(q.sinceRowVersion !== undefined ? { sinceRowVersion: q.sinceRowVersion } : {}),
      };
      const versions = await listValueVersions(db, filter);
      const queries = await listQueries(db, { recordId: row.id, ...(q.path !== undefined ? { path: q.path } : {}) });
      const phi = phiKeys(form);
      if (pii && versions.some((v) => v.value !== null && isPhiPath(phi, v.path)))
        await auditPiiRead(auditCtx, row.id, {
          patientId: row.patientId,
          formKey: row.formKey,
          instance: row.instance,
          history: q.path ?? null,
        });
      return {
        recordId: row.id,
        formKey: row.formKey,
        instance: row.instance,
        patientId: row.patientId,
        versions: versions.map((v) => presentValueVersion(v, form, pii)),
        queries: queries.map(presentQuery),
      };
    },

    /** Marks the latest versions of data points verified against the source (`patient.sdv`). */
    async sdv(auth: AuthContext, input: SdvInput, auditCtx: AuditContext): Promise<{ verified: number }> {
      const scope = await requireProjectScope(db, auth);
      const row = await visibleRecord(scope, input.recordId);
      if (row.frozen) throw new AppError(409, M.frozen);
      const paths = [...new Set(input.paths)];
      const latest = await latestVersionsOf(db, row.id, paths);
      const byPath = new Map(latest.map((l) => [l.path, l]));
      const missing = input.paths.flatMap((p, i) =>
        byPath.has(p) ? [] : [{ path: `paths.${i}`, message: `数据项 ${p} 没有可核查的值` }],
      );
      if (missing.length > 0) throw new AppError(400, missing[0]?.message ?? M.pathNotFound, missing);
      const todo = latest.filter((l) => !l.verified);
      if (todo.length === 0) return { verified: 0 };
      const now = clock.now();
      const verified = await db.transaction(async (tx) => {
        const n = await insertSdvMarks(
          tx,
          todo.map((l) => ({
            tenantId: scope.tenantId,
            recordId: row.id,
            path: l.path,
            valueVersionId: l.id,
            verifiedBy: scope.userId,
            verifiedAt: now,
          })),
        );
        await audit(
          tx,
          auditCtx,
          {
            action: 'form_record.sdv',
            entityType: 'form_record',
            entityId: row.id,
            newValue: {
              patientId: row.patientId,
              formKey: row.formKey,
              instance: row.instance,
              paths: todo.map((l) => l.path),
              valueVersionIds: todo.map((l) => l.id),
            },
          },
          now,
        );
        return n;
      });
      return { verified };
    },
  };
}
