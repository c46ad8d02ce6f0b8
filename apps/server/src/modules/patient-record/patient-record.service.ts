import type { z } from 'zod';
import type {
  FormRecordVO,
  PatientRecordsResponse,
  recordDetailQuery,
  RecordStatus,
  recordStatusRequest,
} from '@registry/shared/contracts/form-record';
import type { FormDefinition } from '@registry/shared/forms/definition';
import { evaluateForm, isBlankValue, validateRecord, type EvaluateContext } from '@registry/shared/forms/record';
import { missingChangeReason } from '@registry/shared/forms/change-reason';
import { boundFields } from '@registry/shared/forms/binding';
import { PERMISSIONS } from '@registry/shared/permissions';
import type { Db, Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { audit, type AuditContext } from '../../plugins/audit';
import type { AuthContext } from '../auth/session.service';
import { requireProjectScope, type ProjectScope } from '../../domain/scope/project-scope';
import type { DefinitionCache, PublishedVersion } from '../../domain/crf/definition-cache';
import type { PatientFollowupSync } from '../../domain/patient-change/followup-sync';
import { RECORD_MESSAGES as M } from './patient-record.messages';
import { presentBlankRecord, presentRecord, presentSummary, shownData } from './patient-record.presenter';
import {
  loadRecordExtras,
  nextInstance,
  softDeleteRecord,
  type PatientContext,
  type RecordRow,
} from './patient-record.repository';
import { closeQueriesOfRecords } from './data-query.repository';
import { diffLeaves, isPhiPath, keepWithheld, leafValues, phiKeys } from './record-data';
import { writeRecord } from './record-writer';
import { externalOf } from './external-values';
import { createRecordContext, currentForm, holdsPhi, soft } from './record-context';
import {
  checkSentData,
  dependentRecalcs,
  planBoundChange,
  resolveSaveTarget,
  savedStatus,
  writeDependents,
  type BoundPatients,
  type SaveInput,
} from './record-save';

export type { BoundPatients, BoundUpdatePlan } from './record-save';

type DetailInput = z.output<typeof recordDetailQuery>;
type StatusInput = z.output<typeof recordStatusRequest>;
type DeleteInput = { id: string; reason?: string };

/** The form's data fields shown, those holding a value, required ones still blank (layout and calc fields aside). */
export function completeness(
  form: FormDefinition,
  data: Readonly<Record<string, unknown>>,
  ctx: EvaluateContext,
): { filled: number; total: number; missingRequired: number } {
  const hidden = new Set(evaluateForm(form, data, ctx).hidden);
  let filled = 0;
  let total = 0;
  let missingRequired = 0;
  for (const field of form.fields) {
    if (field.type === 'section' || field.type === 'description' || field.type === 'calc' || hidden.has(field.key))
      continue;
    total++;
    const value = data[field.key];
    if (!isBlankValue(value)) filled++;
    else if (field.required) missingRequired++;
    if (field.type !== 'group' || !Array.isArray(value)) continue;
    value.forEach((row: unknown, index) => {
      const cells = row !== null && typeof row === 'object' ? (row as Record<string, unknown>) : {};
      for (const column of field.fields ?? [])
        if (column.required && column.type !== 'calc' && !hidden.has(`${field.key}.${index}.${column.key}`))
          if (isBlankValue(cells[column.key])) missingRequired++;
    });
  }
  return { filled, total, missingRequired };
}

export { externalOf };

export type PatientRecordService = ReturnType<typeof createPatientRecordService>;

/**
 * A patient's CRF records: the form tree, one record (or a blank one), the save, verify/lock/unlock and the removal
 * of an instance. Their history and SDV are `record-history.service.ts`, their queries `data-query.service.ts`.
 */
export function createPatientRecordService(deps: {
  db: Db;
  clock: Clock;
  definitions?: DefinitionCache;
  /** The patient record: the one source of the CRF fields bound to it. */
  patients: BoundPatients;
  /** The patient's follow-up kept in step with a save of a form it reads (the follow-up module's, from buildApp). */
  followup: PatientFollowupSync;
}) {
  const { db, clock } = deps;
  const {
    cache,
    hasPii,
    requirePermission,
    patientContext,
    visibleRecord,
    formOfRecord,
    engineContext,
    auditPiiRead,
    versionsOf,
  } = createRecordContext(deps);

  /** The patient's values of the form's bound fields; undefined when the form binds none (no read). */
  async function boundOf(scope: ProjectScope, patientId: string, form: FormDefinition) {
    return boundFields(form).length > 0 ? deps.patients.boundValues(scope, patientId) : undefined;
  }

  /** A blank record as the edit page gets it: the bound fields already hold the patient's values. */
  async function presentBlank(
    scope: ProjectScope,
    patientId: string,
    form: FormDefinition,
    instance: number,
    version: PublishedVersion,
  ): Promise<FormRecordVO> {
    const bound = await boundOf(scope, patientId, form);
    return presentBlankRecord(
      patientId,
      form.key,
      instance,
      version,
      bound ? shownData(form, {}, hasPii(scope), bound) : undefined,
    );
  }

  /** The stored record as the edit page gets it (its soft issues against the patient's other forms). */
  async function presentStored(
    scope: ProjectScope,
    ctx: PatientContext,
    versions: ReadonlyMap<string, PublishedVersion>,
    row: RecordRow,
  ): Promise<FormRecordVO> {
    const version = versions.get(row.versionId) ?? (await formOfRecord(scope.tenantId, row)).version;
    const form = version.forms.get(row.formKey);
    if (!form) throw new Error(`version ${row.versionId} lacks form ${row.formKey}`);
    const verdict = validateRecord(form, row.data, {
      ...engineContext(version, externalOf(ctx.records, versions, row.formKey)),
      mode: 'draft',
    });
    const bound = await boundOf(scope, ctx.patient.id, form);
    return presentRecord(row, {
      patientId: ctx.patient.id,
      version,
      form,
      pii: hasPii(scope),
      issues: verdict.issues,
      extras: await loadRecordExtras(db, row.id),
      ...(bound ? { bound } : {}),
    });
  }

  return {
    /** Every live record of a patient with its completeness (the form tree). */
    async patientRecords(auth: AuthContext, patientId: string): Promise<PatientRecordsResponse> {
      const scope = await requireProjectScope(db, auth);
      const ctx = await patientContext(scope, patientId, 'all');
      const versions = await cache.load(
        db,
        scope.tenantId,
        ctx.records.map((r) => r.versionId),
      );
      const records = ctx.records.flatMap((r) => {
        const version = versions.get(r.versionId);
        const form = version?.forms.get(r.formKey);
        if (!version || !form) return [];
        const engine = engineContext(version, externalOf(ctx.records, versions, r.formKey));
        const issues = soft(validateRecord(form, r.data, { ...engine, mode: 'draft' }).issues);
        return [presentSummary(r, { ...completeness(form, r.data, engine), softIssues: issues.length })];
      });
      return { records };
    },

    /** One record, or a blank one to start from when nothing was saved yet. */
    async detail(auth: AuthContext, q: DetailInput, auditCtx: AuditContext): Promise<FormRecordVO> {
      const scope = await requireProjectScope(db, auth);
      const ctx = await patientContext(scope, q.patientId, { formKey: q.formKey, instance: q.instance });
      const versions = await versionsOf(scope.tenantId, ctx);
      const found = ctx.records.find((r) => r.formKey === q.formKey && r.instance === q.instance);
      if (!found) {
        const current = currentForm(ctx, versions, q.formKey);
        if (!current) throw new AppError(404, M.formNotFound);
        if (q.instance !== 1 && !current.form.repeating) throw new AppError(404, M.notFound);
        const blank = await presentBlank(scope, ctx.patient.id, current.form, q.instance, current.version);
        // The patient's identity values shown in clear are a read of identified data, audited like the patient's.
        if (
          hasPii(scope) &&
          blank.data &&
          boundFields(current.form).some((b) => b.attribute !== 'gender' && !isBlankValue(blank.data[b.field.key]))
        )
          await audit(db, auditCtx, {
            action: 'patient.pii_read',
            entityType: 'patient',
            entityId: ctx.patient.id,
            newValue: { patientIds: [ctx.patient.id], formKey: q.formKey },
          });
        return blank;
      }
      const vo = await presentStored(scope, ctx, versions, found);
      const form = versions.get(found.versionId)?.forms.get(found.formKey);
      if (hasPii(scope) && form && holdsPhi(form, found.data))
        await auditPiiRead(auditCtx, found.id, {
          patientId: ctx.patient.id,
          formKey: found.formKey,
          instance: found.instance,
        });
      return vo;
    },

    /**
     * Saves a form's data: draft or submit, the engine's verdict, reason and concurrency rules (see the contract).
     * `link.followupTaskId` (the follow-up record) tags a new or untagged record with the follow-up task.
     */
    async save(
      auth: AuthContext,
      input: SaveInput,
      auditCtx: AuditContext,
      link: { followupTaskId?: string } = {},
    ): Promise<FormRecordVO> {
      const scope = await requireProjectScope(db, auth);
      const ctx = await patientContext(scope, input.patientId, {
        formKey: input.formKey,
        instance: input.instance ?? 1,
      });
      const versions = await versionsOf(scope.tenantId, ctx);
      const { target, next, repeating, existing, version, form } = resolveSaveTarget(ctx, versions, input);

      const pii = hasPii(scope);
      const { base, patientPlan } = await planBoundChange(deps.patients, scope, ctx.patient.id, form, input.data, pii);
      const sent = !pii && existing ? keepWithheld(form, existing.data, base) : base;
      const external = externalOf(ctx.records, versions, form.key);
      const engine = engineContext(version, external);
      const stored = existing?.data ?? {};
      const mode =
        input.action === 'submit' || existing?.status === 'submitted' || existing?.status === 'verified'
          ? 'submit'
          : 'draft';
      const verdict = await checkSentData(db, scope.tenantId, form, sent, stored, { ...engine, mode });

      const changes = diffLeaves(form, stored, verdict.data);
      const from: RecordStatus = existing?.status ?? 'draft';
      const status = savedStatus(from, input.action, changes.length > 0);
      const reason = input.reason?.trim() ?? '';
      if (missingChangeReason(from, changes.length > 0, reason))
        throw new AppError(400, M.reasonRequired, [{ path: 'reason', message: M.reasonRequired }]);
      if (!existing && changes.length === 0 && status === 'draft' && !patientPlan)
        return presentBlank(
          scope,
          ctx.patient.id,
          form,
          next
            ? await nextInstance(db, { tenantId: scope.tenantId, patientId: ctx.patient.id, formKey: form.key })
            : target,
          version,
        );
      if (existing && changes.length === 0 && status === existing.status && !patientPlan)
        return presentStored(scope, ctx, versions, existing);

      const sentLeaves = leafValues(form, sent);
      const storedLeaves = leafValues(form, verdict.data);
      const derivedPaths = new Set([...sentLeaves.keys()].filter((p) => !storedLeaves.has(p)));
      const previousSoftIssues = existing
        ? soft(validateRecord(form, existing.data, { ...engine, mode: 'draft' }).issues)
        : [];
      const now = clock.now();
      // An active follow-up plan reading this form (anchor or rule field): the write and the patient's follow-up
      // sync share a transaction. Otherwise one statement, atomic by itself (see the writer).
      const followup = await deps.followup.readsForm(
        db,
        scope.tenantId,
        [ctx.patient.projectId, ...(ctx.patient.subProjectId ? [ctx.patient.subProjectId] : [])],
        form.key,
      );
      const projectId = ctx.patient.subProjectId ?? ctx.patient.projectId;
      const write = (ex: Executor) =>
        writeRecord(ex, auditCtx, {
          tenantId: scope.tenantId,
          projectId,
          patientId: ctx.patient.id,
          form,
          versionId: version.id,
          existing: existing ?? null,
          instance: next ? 'next' : target,
          data: verdict.data,
          softIssues: verdict.issues,
          previousSoftIssues,
          status,
          source: { type: 'manual' },
          reason: reason || null,
          derivedPaths,
          actorId: scope.userId,
          at: now,
          ...(link.followupTaskId ? { followupTaskId: link.followupTaskId } : {}),
        });
      // The patient's other records whose calculated fields read this form: computed again with its new data and
      // written in the same transaction (audited, value source calc). Locked records keep their values.
      const dependents = dependentRecalcs(
        ctx,
        versions,
        { form, versionId: version.id, target, next, repeating, data: verdict.data },
        engineContext,
      );
      // A bound value changed: the patient (audited `patient.update`, its other records' bound fields and follow-up)
      // changes in the same transaction as the record, so the two never disagree.
      const written =
        followup || dependents.length > 0 || patientPlan
          ? await db.transaction(async (tx) => {
              const result = await write(tx);
              await writeDependents(tx, auditCtx, dependents, {
                tenantId: scope.tenantId,
                projectId,
                patientId: ctx.patient.id,
                actorId: scope.userId,
                at: now,
                formTitle: form.title,
              });
              if (patientPlan) await deps.patients.applyBoundUpdate(tx, scope, patientPlan, auditCtx, now);
              else if (followup) await deps.followup.syncPatient(tx, auditCtx, ctx.patient.id, now);
              return result;
            })
          : await write(db);
      const row = written.record as RecordRow;
      const boundNow = await boundOf(scope, ctx.patient.id, form);
      return presentRecord(row, {
        patientId: ctx.patient.id,
        version,
        form,
        pii,
        issues: verdict.issues,
        extras: await loadRecordExtras(db, row.id),
        ...(boundNow ? { bound: boundNow } : {}),
      });
    },

    /** verify (`patient.sdv`), lock and unlock (`patient.lock`; unlock with a reason). */
    async changeStatus(auth: AuthContext, input: StatusInput, auditCtx: AuditContext): Promise<FormRecordVO> {
      const scope = await requireProjectScope(db, auth);
      requirePermission(scope, input.action === 'verify' ? PERMISSIONS.patientSdv : PERMISSIONS.patientLock);
      const row = await visibleRecord(scope, input.id);
      if (row.frozen) throw new AppError(409, M.frozen);
      if (row.rowVersion !== input.rowVersion) throw new AppError(409, M.stale);
      let status: RecordStatus;
      if (input.action === 'verify') {
        if (row.status !== 'submitted') throw new AppError(409, M.verifyNotSubmitted);
        status = 'verified';
      } else if (input.action === 'lock') {
        if (row.status !== 'submitted' && row.status !== 'verified') throw new AppError(409, M.lockNotSubmitted);
        status = 'locked';
      } else {
        if (row.status !== 'locked') throw new AppError(409, M.unlockNotLocked);
        status = row.verifiedAt ? 'verified' : 'submitted';
      }
      const reason = input.reason?.trim() ?? '';
      if (input.action === 'unlock' && reason === '')
        throw new AppError(400, M.unlockReasonRequired, [{ path: 'reason', message: M.unlockReasonRequired }]);
      const { form } = await formOfRecord(scope.tenantId, row);
      await writeRecord(db, auditCtx, {
        tenantId: scope.tenantId,
        projectId: row.projectId,
        patientId: row.patientId,
        form,
        versionId: row.versionId,
        existing: row,
        data: row.data,
        softIssues: [],
        previousSoftIssues: [],
        status,
        source: { type: 'manual' },
        reason: reason || null,
        actorId: scope.userId,
        at: clock.now(),
        action: `form_record.${input.action}`,
      });
      const ctx = await patientContext(scope, row.patientId, { formKey: row.formKey, instance: row.instance });
      const versions = await versionsOf(scope.tenantId, ctx);
      const after = ctx.records.find((r) => r.id === row.id);
      if (!after) throw new AppError(404, M.notFound);
      return presentStored(scope, ctx, versions, after);
    },

    /** Removes an instance of a repeating form (never a locked one), with a reason. */
    async remove(auth: AuthContext, q: DeleteInput, auditCtx: AuditContext): Promise<{ deleted: number }> {
      const scope = await requireProjectScope(db, auth);
      const row = await visibleRecord(scope, q.id);
      if (row.frozen) throw new AppError(409, M.frozen);
      if (row.status === 'locked') throw new AppError(409, M.locked);
      const { form } = await formOfRecord(scope.tenantId, row);
      if (!form.repeating) throw new AppError(400, M.deleteNotRepeating);
      const why = q.reason?.trim();
      if (!why) throw new AppError(400, M.deleteReasonRequired, [{ path: 'reason', message: M.deleteReasonRequired }]);
      const now = clock.now();
      await db.transaction(async (tx) => {
        const gone = await softDeleteRecord(
          tx,
          { tenantId: scope.tenantId, id: row.id },
          { deletedAt: now, deleteReason: why, updatedBy: scope.userId, updatedAt: now },
        );
        if (!gone) throw new AppError(409, M.stale);
        const closed = await closeQueriesOfRecords(tx, [row.id], {
          closedBy: scope.userId,
          closedAt: now,
          closeNote: M.instanceRemoved,
        });
        const phi = phiKeys(form);
        const values = Object.fromEntries(
          [...leafValues(form, row.data)].map(([path, value]) => [path, isPhiPath(phi, path) ? '[PHI]' : value]),
        );
        const head = { patientId: row.patientId, formKey: row.formKey, instance: row.instance };
        await audit(
          tx,
          auditCtx,
          {
            action: 'form_record.delete',
            entityType: 'form_record',
            entityId: row.id,
            oldValue: { ...head, status: row.status, rowVersion: row.rowVersion, values },
            newValue: {
              ...head,
              deleted: true,
              rowVersion: gone.rowVersion,
              ...(closed > 0 ? { queriesClosed: closed } : {}),
            },
            reason: why,
          },
          now,
        );
      });
      return { deleted: 1 };
    },
  };
}
