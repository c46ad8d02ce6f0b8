import type { z } from 'zod';
import type { RecordStatus, recordSaveRequest } from '@registry/shared/contracts/form-record';
import type { FormDefinition } from '@registry/shared/forms/definition';
import { validateRecord, type EvaluateContext, type ValidateContext } from '@registry/shared/forms/record';
import { boundFields, type BoundAttribute } from '@registry/shared/forms/binding';
import type { Executor } from '../../db/client';
import { AppError } from '../../lib/errors';
import type { AuditContext } from '../../plugins/audit';
import type { ProjectScope } from '../../domain/scope/project-scope';
import { existingDictOptions, dictOptionKey } from '../../domain/crf/crf-definition.repository';
import type { PublishedVersion } from '../../domain/crf/definition-cache';
import { dictValuesOf } from '../database/database.service';
import { RECORD_MESSAGES as M } from './patient-record.messages';
import type { ContextRecord, PatientContext } from './patient-record.repository';
import { boundInput, withPatientValues, type BoundValues } from './patient-binding';
import { calcsRead, fieldKeysOf, recomputeCalcs } from './dependent-calcs';
import { externalOf } from './external-values';
import { currentForm } from './record-context';
import { diffLeaves } from './record-data';
import { writeRecord } from './record-writer';

/** The parts of a record save (`form-record/save`), each a step of `PatientRecordService.save`. */

export type SaveInput = z.output<typeof recordSaveRequest>;

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

/**
 * The record a save writes and the version and form it is written on: the stored instance (on its own version), or a
 * new one (the next instance of a repeating form when `instance` is absent and `rowVersion` 0) on the current form.
 * The not-found, frozen, locked and row-version rules answer here.
 */
export function resolveSaveTarget(
  ctx: PatientContext,
  versions: ReadonlyMap<string, PublishedVersion>,
  input: SaveInput,
) {
  const target = input.instance ?? 1;
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
  return { target, next, repeating, existing, version, form };
}

/**
 * Bound fields: the patient's attributes, checked like 新增患者; a change is the patient's change. The data
 * the record takes, and the patient's change planned (null: none).
 */
export async function planBoundChange(
  patients: BoundPatients,
  scope: ProjectScope,
  patientId: string,
  form: FormDefinition,
  data: SaveInput['data'],
  pii: boolean,
): Promise<{ base: SaveInput['data']; patientPlan: BoundUpdatePlan | null }> {
  let patientPlan: BoundUpdatePlan | null = null;
  let base = data;
  if (boundFields(form).length > 0) {
    const current: BoundValues = await patients.boundValues(scope, patientId);
    const asked = boundInput(form, data, current, pii);
    base = asked.data;
    if (Object.keys(asked.changes).length > 0) {
      patientPlan = await atFieldKeys(form, () => patients.planBoundUpdate(scope, patientId, asked.changes));
      // A new identity number fills an empty birth date and sex, as on 新增患者: the record takes them too.
      if (patientPlan) base = withPatientValues(form, base, patientPlan.next);
    }
  }
  return { base, patientPlan };
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

/** The engine's verdict on the data sent; its hard issues answer 400 at their paths. */
export async function checkSentData(
  db: Executor,
  tenantId: string,
  form: FormDefinition,
  sent: Record<string, unknown>,
  stored: Readonly<Record<string, unknown>>,
  engine: ValidateContext,
) {
  // A code stored before stays accepted (an option disabled since does not block the record's other changes).
  const storedDict = new Set(dictValuesOf(form, stored).map((p) => dictOptionKey(p.dictCode, p.code)));
  const ask = dictValuesOf(form, sent).filter((p) => !storedDict.has(dictOptionKey(p.dictCode, p.code)));
  const known = ask.length > 0 ? await existingDictOptions(db, tenantId, ask) : new Set<string>();
  const verdict = validateRecord(form, sent, {
    ...engine,
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
  return verdict;
}

/** The status a save leaves: a draft stays one unless submitted; a verified record changed is submitted again. */
export function savedStatus(from: RecordStatus, action: SaveInput['action'], changed: boolean): RecordStatus {
  return from === 'draft'
    ? action === 'submit'
      ? 'submitted'
      : 'draft'
    : from === 'verified' && changed
      ? 'submitted'
      : from;
}

type Dependent = {
  record: ContextRecord;
  form: FormDefinition;
  data: Record<string, unknown>;
  issues: ReturnType<typeof validateRecord>['issues'];
};

/**
 * The patient's other records whose calculated fields read this form: computed again with its new data (locked
 * records keep their values). None for a repeating form.
 */
export function dependentRecalcs(
  ctx: PatientContext,
  versions: ReadonlyMap<string, PublishedVersion>,
  saved: {
    form: FormDefinition;
    versionId: string;
    target: number;
    next: boolean;
    repeating: boolean;
    data: Record<string, unknown>;
  },
  engineContext: (version: PublishedVersion, external: Record<string, unknown>) => EvaluateContext,
): Dependent[] {
  const { form, target, next, repeating } = saved;
  const after = [
    ...ctx.records.filter((r) => !(r.formKey === form.key && r.instance === target)),
    ...(next || repeating ? [] : [{ formKey: form.key, instance: 1, versionId: saved.versionId, data: saved.data }]),
  ];
  const keys = fieldKeysOf(form);
  return repeating
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
}

/** The dependents written in the save's transaction (audited `form_record.recalculate`, value source calc). */
export async function writeDependents(
  ex: Executor,
  auditCtx: AuditContext,
  dependents: readonly Dependent[],
  common: { tenantId: string; projectId: string; patientId: string; actorId: string; at: Date; formTitle: string },
): Promise<void> {
  for (const d of dependents)
    await writeRecord(ex, auditCtx, {
      tenantId: common.tenantId,
      projectId: common.projectId,
      patientId: common.patientId,
      form: d.form,
      versionId: d.record.versionId,
      existing: d.record,
      data: d.data,
      softIssues: d.issues,
      status: d.record.status,
      source: { type: 'manual' },
      reason: M.recalculated(common.formTitle),
      actorId: common.actorId,
      at: common.at,
      action: 'form_record.recalculate',
    });
}
