import type { z } from 'zod';
import type { RecordIssue } from '@registry/shared/contracts/form-definition';
import type {
  DataQueryVO,
  FormRecordVO,
  PatientRecordsResponse,
  queryAnswerRequest,
  queryCloseRequest,
  queryCreateRequest,
  queryPageRequest,
  QueryPageResponse,
  recordDetailQuery,
  RecordHistoryResponse,
  recordHistoryQuery,
  recordSaveRequest,
  RecordStatus,
  recordStatusRequest,
  sdvRequest,
} from '@registry/shared/contracts/form-record';
import type { FormDefinition } from '@registry/shared/forms/definition';
import { evaluateForm, isBlankValue, validateRecord, type EvaluateContext } from '@registry/shared/forms/record';
import { missingChangeReason } from '@registry/shared/forms/change-reason';
import { hasAnyPermission, PERMISSIONS } from '@registry/shared/permissions';
import type { Db, Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError, ERROR_MESSAGES } from '../../lib/errors';
import { audit, type AuditContext } from '../../plugins/audit';
import type { AuthContext } from '../auth/session.service';
import { existingDictOptions, dictOptionKey } from '../../domain/crf/crf-definition.repository';
import { dictValuesOf } from '../database/database.service';
import { shanghaiDate } from '@registry/shared/followup/schedule';
import { isUuid, requireProjectScope, type ProjectScope } from '../../domain/scope/project-scope';
import { createDefinitionCache, type DefinitionCache, type PublishedVersion } from '../../domain/crf/definition-cache';
import { RECORD_MESSAGES as M } from './patient-record.messages';
import type { NotificationKind } from '@registry/shared/contracts/notification';
import type { NotificationMessage, Notifier } from '../notification/notifier';
import {
  presentBlankRecord,
  presentQuery,
  presentQueryListItem,
  presentRecord,
  presentSummary,
  presentValueVersion,
  shownData,
} from './patient-record.presenter';
import {
  closeQueriesOfRecords,
  dataPointOwner,
  findQuery,
  findQueryParties,
  pageQueries,
  userName,
  usersSeeingPatient,
  findRecord,
  insertQuery,
  insertSdvMarks,
  latestVersionsOf,
  listQueries,
  listValueVersions,
  loadPatientContext,
  loadRecordExtras,
  nextInstance,
  softDeleteRecord,
  updateQuery,
  type PatientContext,
  type RecordRow,
  type ScopedRecord,
} from './patient-record.repository';
import { diffLeaves, fieldOfPath, isPhiPath, keepWithheld, leafValues, pathLabelOf, phiKeys } from './record-data';
import { withPatientValues } from './patient-binding';
import { writeRecord } from './record-writer';
import { externalOf } from './external-values';
import { boundFields } from '@registry/shared/forms/binding';
import { boundInput, type BoundValues } from './patient-binding';
import type { BoundAttribute } from '@registry/shared/forms/binding';
import { calcsRead, fieldKeysOf, recomputeCalcs } from './dependent-calcs';
import type { PatientFollowupSync } from '../../domain/patient-change/followup-sync';

type SaveInput = z.output<typeof recordSaveRequest>;
type DetailInput = z.output<typeof recordDetailQuery>;
type StatusInput = z.output<typeof recordStatusRequest>;
type DeleteInput = { id: string; reason?: string };
type HistoryInput = z.output<typeof recordHistoryQuery>;
type SdvInput = z.output<typeof sdvRequest>;
type QueryCreateInput = z.output<typeof queryCreateRequest>;
type QueryAnswerInput = z.output<typeof queryAnswerRequest>;
type QueryCloseInput = z.output<typeof queryCloseRequest>;
type QueryPageInput = z.output<typeof queryPageRequest>;

const DAY_MS = 24 * 60 * 60 * 1000;
/** The query text quoted in a notification is cut here (the record shows it whole). */
const QUOTE_MAX = 100;
const quote = (text: string) => (text.length > QUOTE_MAX ? `${text.slice(0, QUOTE_MAX)}…` : text);

const soft = (issues: readonly RecordIssue[]) => issues.filter((i) => i.level === 'soft');

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

/** A planned change of a patient's bound attributes: the values after it. */
export type BoundUpdatePlan = { readonly next: BoundValues };

/**
 * The patient module as a record save uses it: the bound attributes' values, a change of them planned and checked as
 * 编辑患者 checks it (null: nothing changes), then applied in the save's transaction (ADR 0010). `buildApp` passes the
 * patient service; its plan (the patient module's own) is read for the values it leads to, and handed back.
 */
export type BoundPatients = {
  boundValues(scope: ProjectScope, patientId: string): Promise<BoundValues>;
  planBoundUpdate(
    scope: ProjectScope,
    patientId: string,
    changes: Partial<Record<BoundAttribute, string | null>>,
  ): Promise<BoundUpdatePlan | null>;
  applyBoundUpdate(
    tx: Executor,
    scope: ProjectScope,
    plan: BoundUpdatePlan,
    ctx: AuditContext,
    now: Date,
  ): Promise<void>;
};

export function createPatientRecordService(deps: {
  db: Db;
  clock: Clock;
  definitions?: DefinitionCache;
  /** Tells the people of a query (issue 12) inside the query's transaction; none = nobody is told. */
  notifier?: Notifier;
  /** The patient record: the one source of the CRF fields bound to it (issue 12). */
  patients: BoundPatients;
  /** The patient's follow-up kept in step with a save of a form it reads (the follow-up module's, from buildApp). */
  followup: PatientFollowupSync;
}) {
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

  /** The form a new record takes: the patient's sub-project's current version first, then its project's. */
  function currentForm(ctx: PatientContext, versions: ReadonlyMap<string, PublishedVersion>, formKey: string) {
    for (const id of ctx.latestVersionIds) {
      const version = versions.get(id);
      const form = version?.forms.get(formKey);
      if (version && form) return { version, form };
    }
    return undefined;
  }

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

  const engineContext = (version: PublishedVersion, external: Record<string, unknown>): EvaluateContext => ({
    missingCodes: version.missingCodes,
    external,
    today: shanghaiDate(clock.now()),
  });

  /** A read of identified data (a `phi` value shown to a `patient.pii` holder) is audited before the answer leaves. */
  async function auditPiiRead(ctx: AuditContext, entityId: string, detail: Record<string, unknown>) {
    await audit(db, ctx, { action: 'form_record.pii_read', entityType: 'form_record', entityId, newValue: detail });
  }

  const holdsPhi = (form: FormDefinition, data: Readonly<Record<string, unknown>>) => {
    const phi = phiKeys(form);
    if (phi.size === 0) return false;
    for (const path of leafValues(form, data).keys()) if (isPhiPath(phi, path)) return true;
    return false;
  };

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

  async function versionsOf(tenantId: string, ctx: PatientContext) {
    return cache.load(db, tenantId, [...ctx.records.map((r) => r.versionId), ...ctx.latestVersionIds]);
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
     * `link.followupTaskId` (the follow-up record, issue 6) tags a new or untagged record with the follow-up task.
     */
    async save(
      auth: AuthContext,
      input: SaveInput,
      auditCtx: AuditContext,
      link: { followupTaskId?: string } = {},
    ): Promise<FormRecordVO> {
      const scope = await requireProjectScope(db, auth);
      const target = input.instance ?? 1;
      const ctx = await patientContext(scope, input.patientId, { formKey: input.formKey, instance: target });
      const versions = await versionsOf(scope.tenantId, ctx);
      const found = ctx.records.find((r) => r.formKey === input.formKey && r.instance === target);
      const current = currentForm(ctx, versions, input.formKey);
      const foundVersion = found ? versions.get(found.versionId) : undefined;
      const foundForm = foundVersion?.forms.get(input.formKey);
      const repeating = (foundForm ?? current?.form)?.repeating === true;
      if (!foundForm && !current) throw new AppError(404, M.formNotFound);
      if (ctx.frozen) throw new AppError(409, M.frozen);

      const next = input.instance === undefined && input.rowVersion === 0 && repeating;
      if (!repeating && target !== 1)
        throw new AppError(400, M.notRepeating, [{ path: 'instance', message: M.notRepeating }]);
      const existing = next ? undefined : found;
      const on = existing && foundVersion && foundForm ? { version: foundVersion, form: foundForm } : current;
      if (!on) throw new AppError(404, M.formNotFound);
      const { version, form } = on;
      if (existing?.status === 'locked') throw new AppError(409, M.locked);
      if (input.rowVersion === 0 && existing) throw new AppError(409, M.stale);
      if (input.rowVersion > 0 && !existing) throw new AppError(404, M.notFound);
      if (existing && existing.rowVersion !== input.rowVersion) throw new AppError(409, M.stale);

      const pii = hasPii(scope);
      // Bound fields (issue 12): the patient's attributes, checked like 新增患者; a change is the patient's change.
      const bound = boundFields(form);
      let patientPlan: Awaited<ReturnType<typeof deps.patients.planBoundUpdate>> = null;
      let base = input.data;
      if (bound.length > 0) {
        const current: BoundValues = await deps.patients.boundValues(scope, ctx.patient.id);
        const asked = boundInput(form, input.data, current, pii);
        base = asked.data;
        if (Object.keys(asked.changes).length > 0) {
          patientPlan = await atFieldKeys(form, () =>
            deps.patients.planBoundUpdate(scope, ctx.patient.id, asked.changes),
          );
          // A new identity number fills an empty birth date and sex, as on 新增患者: the record takes them too.
          if (patientPlan) base = withPatientValues(form, base, patientPlan.next);
        }
      }
      const sent = !pii && existing ? keepWithheld(form, existing.data, base) : base;
      const external = externalOf(ctx.records, versions, form.key);
      const engine = engineContext(version, external);
      const stored = existing?.data ?? {};
      const mode =
        input.action === 'submit' || existing?.status === 'submitted' || existing?.status === 'verified'
          ? 'submit'
          : 'draft';
      // A code stored before stays accepted (an option disabled since does not block the record's other changes).
      const storedDict = new Set(dictValuesOf(form, stored).map((p) => dictOptionKey(p.dictCode, p.code)));
      const ask = dictValuesOf(form, sent).filter((p) => !storedDict.has(dictOptionKey(p.dictCode, p.code)));
      const known = ask.length > 0 ? await existingDictOptions(db, scope.tenantId, ask) : new Set<string>();
      const verdict = validateRecord(form, sent, {
        ...engine,
        mode,
        dictionaryHas: (dictCode, code) =>
          storedDict.has(dictOptionKey(dictCode, code)) || known.has(dictOptionKey(dictCode, code)),
      });
      const hard = verdict.issues.filter((i) => i.level === 'hard');
      if (hard.length > 0)
        throw new AppError(
          400,
          hard[0]?.message ?? M.invalid,
          hard.map((i) => ({ path: i.path, message: i.message })),
        );

      const changes = diffLeaves(form, stored, verdict.data);
      const from: RecordStatus = existing?.status ?? 'draft';
      const status: RecordStatus =
        from === 'draft'
          ? input.action === 'submit'
            ? 'submitted'
            : 'draft'
          : from === 'verified' && changes.length > 0
            ? 'submitted'
            : from;
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
      const write = (ex: Executor) =>
        writeRecord(ex, auditCtx, {
          tenantId: scope.tenantId,
          projectId: ctx.patient.subProjectId ?? ctx.patient.projectId,
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
      const after = [
        ...ctx.records.filter((r) => !(r.formKey === form.key && r.instance === target)),
        ...(next || repeating ? [] : [{ formKey: form.key, instance: 1, versionId: version.id, data: verdict.data }]),
      ];
      const keys = fieldKeysOf(form);
      const dependents = repeating
        ? []
        : ctx.records.flatMap((r) => {
            if (r.formKey === form.key || r.status === 'locked') return [];
            const v = versions.get(r.versionId);
            const f = v?.forms.get(r.formKey);
            if (!v || !f || !calcsRead(f, keys)) return [];
            const dependentEngine = engineContext(v, externalOf(after, versions, r.formKey));
            const data = recomputeCalcs(f, r.data, dependentEngine);
            if (diffLeaves(f, r.data, data).length === 0) return [];
            const issues = validateRecord(f, data, { ...dependentEngine, mode: 'draft' }).issues;
            return [{ record: r, form: f, data, issues }];
          });
      const writeDependents = async (ex: Executor) => {
        for (const d of dependents)
          await writeRecord(ex, auditCtx, {
            tenantId: scope.tenantId,
            projectId: ctx.patient.subProjectId ?? ctx.patient.projectId,
            patientId: ctx.patient.id,
            form: d.form,
            versionId: d.record.versionId,
            existing: d.record,
            data: d.data,
            softIssues: d.issues,
            status: d.record.status,
            source: { type: 'manual' },
            reason: M.recalculated(form.title),
            actorId: scope.userId,
            at: now,
            action: 'form_record.recalculate',
          });
      };
      // A bound value changed: the patient (audited `patient.update`, its other records' bound fields and follow-up)
      // changes in the same transaction as the record, so the two never disagree.
      const written =
        followup || dependents.length > 0 || patientPlan
          ? await db.transaction(async (tx) => {
              const result = await write(tx);
              await writeDependents(tx);
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

    /** A monitor raises a query on a data point (`patient.query`). */
    async raiseQuery(auth: AuthContext, input: QueryCreateInput, auditCtx: AuditContext): Promise<DataQueryVO> {
      const scope = await requireProjectScope(db, auth);
      const row = await visibleRecord(scope, input.recordId);
      if (row.frozen) throw new AppError(409, M.frozen);
      const { form } = await formOfRecord(scope.tenantId, row);
      if (!fieldOfPath(form, input.path))
        throw new AppError(400, M.pathNotFound, [{ path: 'path', message: M.pathNotFound }]);
      const now = clock.now();
      const id = await db.transaction(async (tx) => {
        const owner = await dataPointOwner(tx, row.id, input.path);
        const queryId = await insertQuery(tx, {
          tenantId: scope.tenantId,
          projectId: row.projectId,
          patientId: row.patientId,
          recordId: row.id,
          path: input.path,
          origin: 'manual',
          message: input.message,
          status: 'open',
          raisedBy: scope.userId,
          raisedAt: now,
          assignedTo: owner,
        });
        await audit(
          tx,
          auditCtx,
          {
            action: 'data_query.create',
            entityType: 'data_query',
            entityId: queryId,
            newValue: {
              recordId: row.id,
              formKey: row.formKey,
              instance: row.instance,
              path: input.path,
              message: input.message,
            },
          },
          now,
        );
        await notifyQuery(tx, scope, queryId, 'query_raised', owner);
        return queryId;
      });
      return queryVO(id);
    },

    /** The site answers an open query (`patient.edit`). */
    async answerQuery(auth: AuthContext, input: QueryAnswerInput, auditCtx: AuditContext): Promise<DataQueryVO> {
      const scope = await requireProjectScope(db, auth);
      return moveQuery(scope, input.id, auditCtx, 'answer', { answer: input.answer });
    },

    /** The open-queries list (`/patient/query`): the caller's visible patients' queries, filtered and paged. */
    async queryPage(auth: AuthContext, q: QueryPageInput): Promise<QueryPageResponse> {
      const scope = await requireProjectScope(db, auth);
      const now = clock.now();
      const { total, records } = await pageQueries(db, scope, {
        ...(q.status ? { status: q.status } : {}),
        ...(q.centerId ? { centerId: q.centerId } : {}),
        ...(q.formKey ? { formKey: q.formKey } : {}),
        ...(q.mine ? { mine: q.mine } : {}),
        ...(q.minDaysOpen !== undefined && q.minDaysOpen > 0
          ? { raisedBefore: new Date(now.getTime() - q.minDaysOpen * DAY_MS) }
          : {}),
        current: q.current,
        size: q.size,
      });
      const versions = await cache.load(db, scope.tenantId, [...new Set(records.map((r) => r.versionId))]);
      const pii = hasPii(scope);
      return {
        records: records.map((r) =>
          presentQueryListItem(r, { form: versions.get(r.versionId)?.forms.get(r.formKey), pii, now }),
        ),
        total,
        current: q.current,
        size: q.size,
      };
    },

    /** A monitor closes a query (`patient.query`). */
    async closeQuery(auth: AuthContext, input: QueryCloseInput, auditCtx: AuditContext): Promise<DataQueryVO> {
      const scope = await requireProjectScope(db, auth);
      return moveQuery(scope, input.id, auditCtx, 'close', { note: input.note?.trim() || null });
    },
  };

  /**
   * One notification about a query to `recipient` (never the caller themself, never someone who can no longer see the
   * patient), through the notifier in the caller's transaction: it names the patient number, the form and the field's
   * label, quotes the query, answer or note, and links to the record at the field (ids only, no patient name).
   */
  async function notifyQuery(
    tx: Executor,
    scope: ProjectScope,
    queryId: string,
    kind: Extract<NotificationKind, 'query_raised' | 'query_answered' | 'query_closed'>,
    recipient: string | null,
    extra: { note?: string | null } = {},
  ): Promise<void> {
    if (!deps.notifier || !recipient || recipient === scope.userId) return;
    const q = await findQueryParties(tx, queryId);
    if (!q) return;
    const allowed = await usersSeeingPatient(tx, [recipient], {
      rootProjectId: q.rootProjectId,
      centerId: q.patientCenterId,
    });
    if (!allowed.has(recipient)) return;
    const version = (await cache.load(tx, q.tenantId, [q.versionId])).get(q.versionId);
    const form = version?.forms.get(q.formKey);
    const formTitle = `${form?.title ?? q.formKey}${q.instance > 1 ? `（第${q.instance}条）` : ''}`;
    const where = `“${formTitle}”的“${pathLabelOf(form, q.path)}”`;
    const actor = (await userName(tx, scope.userId)) ?? '';
    const text =
      kind === 'query_raised'
        ? {
            title: `新质疑：患者 ${q.patientNo} ${where}`,
            body: `${actor}对您录入的${where}提出质疑：${quote(q.message)}`,
            sms: `【质疑】患者 ${q.patientNo} 的${where}有新的质疑，请登录系统处理。`,
          }
        : kind === 'query_answered'
          ? {
              title: `质疑已回复：患者 ${q.patientNo} ${where}`,
              body: `${actor}回复了您的质疑：${quote(q.answer ?? '')}`,
              sms: `【质疑】患者 ${q.patientNo} 的${where}的质疑已回复，请登录系统查看。`,
            }
          : {
              title: `质疑已关闭：患者 ${q.patientNo} ${where}`,
              body: `${actor}关闭了您回复的质疑${extra.note ? `：${quote(extra.note)}` : '。'}`,
              sms: `【质疑】患者 ${q.patientNo} 的${where}的质疑已关闭。`,
            };
    const link = `/patient/edit?${new URLSearchParams({
      id: q.patientId,
      form: q.formKey,
      instance: String(q.instance),
      field: q.path,
    }).toString()}`;
    const message: NotificationMessage = {
      tenantId: q.tenantId,
      userId: recipient,
      projectId: q.projectId,
      kind,
      entityId: q.id,
      ...text,
      link,
    };
    await deps.notifier.notify(tx, [message]);
  }

  /** A patient check's issues (paths `idNumber`, `birthDate`, …) at the bound fields' keys of the form saved. */
  async function atFieldKeys<T>(form: FormDefinition, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if (!(err instanceof AppError) || !err.issues) throw err;
      const keyOf = new Map(boundFields(form).map((b) => [b.attribute as string, b.field]));
      const issues = err.issues.map((i) => {
        const field = keyOf.get(i.path);
        return field ? { path: field.key, message: `「${field.label}」：${i.message}` } : i;
      });
      throw new AppError(err.statusCode, issues[0]?.message ?? err.message, issues);
    }
  }

  async function queryVO(id: string): Promise<DataQueryVO> {
    const [q] = await listQueries(db, { id });
    if (!q) throw new AppError(404, M.queryNotFound);
    return presentQuery(q);
  }

  async function moveQuery(
    scope: ProjectScope,
    id: string,
    auditCtx: AuditContext,
    move: 'answer' | 'close',
    input: { answer?: string; note?: string | null },
  ): Promise<DataQueryVO> {
    const found = isUuid(id) ? await findQuery(db, scope, id) : undefined;
    if (!found) throw new AppError(404, M.queryNotFound);
    if (found.frozen) throw new AppError(409, M.frozen);
    if (found.status === 'closed') throw new AppError(409, M.queryClosed);
    const now = clock.now();
    await db.transaction(async (tx: Executor) => {
      const set =
        move === 'answer'
          ? { status: 'answered' as const, answer: input.answer ?? '', answeredBy: scope.userId, answeredAt: now }
          : { status: 'closed' as const, closeNote: input.note ?? null, closedBy: scope.userId, closedAt: now };
      const moved = await updateQuery(tx, found.id, ['open', 'answered'], set);
      if (!moved) throw new AppError(409, M.queryClosed);
      // answered: the raiser is told; closed: the one who answered it
      const parties = await findQueryParties(tx, found.id);
      if (parties)
        await notifyQuery(
          tx,
          scope,
          found.id,
          move === 'answer' ? 'query_answered' : 'query_closed',
          move === 'answer' ? parties.raisedBy : parties.answeredBy,
          { note: input.note ?? null },
        );
      await audit(
        tx,
        auditCtx,
        {
          action: `data_query.${move}`,
          entityType: 'data_query',
          entityId: found.id,
          oldValue: { status: found.status },
          newValue:
            move === 'answer'
              ? { recordId: found.recordId, status: 'answered', answer: input.answer }
              : { recordId: found.recordId, status: 'closed', note: input.note ?? null },
        },
        now,
      );
    });
    return queryVO(found.id);
  }
}
