import type { RecordIssue } from '@registry/shared/contracts/form-definition';
import type { FormDefinition } from '@registry/shared/forms/definition';
import type { EvaluateContext } from '@registry/shared/forms/record';
import { shanghaiDate } from '@registry/shared/followup/schedule';
import { hasAnyPermission, PERMISSIONS } from '@registry/shared/permissions';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError, ERROR_MESSAGES } from '../../lib/errors';
import { audit, type AuditContext } from '../../plugins/audit';
import { isUuid, type ProjectScope } from '../../domain/scope/project-scope';
import { createDefinitionCache, type DefinitionCache, type PublishedVersion } from '../../domain/crf/definition-cache';
import { RECORD_MESSAGES as M } from './patient-record.messages';
import {
  findRecord,
  loadPatientContext,
  type PatientContext,
  type RecordRow,
  type ScopedRecord,
} from './patient-record.repository';
import { isPhiPath, leafValues, phiKeys } from './record-data';

export const soft = (issues: readonly RecordIssue[]) => issues.filter((i) => i.level === 'soft');

/** Whether a record's data holds a value of a `phi` field. */
export const holdsPhi = (form: FormDefinition, data: Readonly<Record<string, unknown>>) => {
  const phi = phiKeys(form);
  if (phi.size === 0) return false;
  for (const path of leafValues(form, data).keys()) if (isPhiPath(phi, path)) return true;
  return false;
};

/** The form a new record takes: the patient's sub-project's current version first, then its project's. */
export function currentForm(ctx: PatientContext, versions: ReadonlyMap<string, PublishedVersion>, formKey: string) {
  for (const id of ctx.latestVersionIds) {
    const version = versions.get(id);
    const form = version?.forms.get(formKey);
    if (version && form) return { version, form };
  }
  return undefined;
}

export type RecordContext = ReturnType<typeof createRecordContext>;

/**
 * What the record, history and query services share: the caller's patient and record (404 when not visible), the
 * published version and form a record was written on (cached by version id), the engine's context, the audited read
 * of identified data.
 */
export function createRecordContext(deps: { db: Db; clock: Clock; definitions?: DefinitionCache }) {
  const { db, clock } = deps;
  const cache = deps.definitions ?? createDefinitionCache();

  const hasPii = (scope: ProjectScope) => scope.permissions.includes(PERMISSIONS.patientPii);

  function requirePermission(scope: ProjectScope, code: string) {
    if (!hasAnyPermission(scope.permissions, [code])) throw new AppError(403, ERROR_MESSAGES.forbidden);
  }

  async function patientContext(
    scope: ProjectScope,
    patientId: string,
    which: Parameters<typeof loadPatientContext>[3],
  ): Promise<PatientContext> {
    const ctx = isUuid(patientId) ? await loadPatientContext(db, scope, patientId, which) : undefined;
    if (!ctx) throw new AppError(404, M.patientNotFound);
    return ctx;
  }

  async function visibleRecord(scope: ProjectScope, id: string): Promise<ScopedRecord> {
    const row = isUuid(id) ? await findRecord(db, scope, id) : undefined;
    if (!row) throw new AppError(404, M.notFound);
    return row;
  }

  /** The published version of a stored record and its form (both exist: the record was written on them). */
  async function formOfRecord(tenantId: string, row: Pick<RecordRow, 'versionId' | 'formKey'>) {
    const version = (await cache.load(db, tenantId, [row.versionId])).get(row.versionId);
    const form = version?.forms.get(row.formKey);
    if (!version || !form) throw new Error(`version ${row.versionId} of a record lacks form ${row.formKey}`);
    return { version, form };
  }

  const engineContext = (version: PublishedVersion, external: Record<string, unknown>): EvaluateContext => ({
    missingCodes: version.missingCodes,
    external,
    today: shanghaiDate(clock.now()),
  });

  /** A read of identified data (a `phi` value shown to a `patient.pii` holder) is audited before the answer leaves. */
  async function auditPiiRead(ctx: AuditContext, entityId: string, detail: Record<string, unknown>) {
    await audit(db, ctx, { action: 'form_record.pii_read', entityType: 'form_record', entityId, newValue: detail });
  }

  async function versionsOf(tenantId: string, ctx: PatientContext) {
    return cache.load(db, tenantId, [...ctx.records.map((r) => r.versionId), ...ctx.latestVersionIds]);
  }

  return {
    cache,
    hasPii,
    requirePermission,
    patientContext,
    visibleRecord,
    formOfRecord,
    engineContext,
    auditPiiRead,
    versionsOf,
  };
}
