import { PATIENT_ATTRIBUTE_SCHEMAS } from '@registry/shared/contracts/patient';
import { boundFields, type BoundAttribute } from '@registry/shared/forms/binding';
import type { FormDefinition } from '@registry/shared/forms/definition';
import { isBlankValue, sameValue, validateRecord } from '@registry/shared/forms/record';
import { shanghaiDate } from '@registry/shared/followup/schedule';
import { isMaskedValue, PATIENT_PHI_MASKS, showPatientValue } from '@registry/shared/phi-mask';
import type { Executor } from '../../db/client';
import { AppError } from '../../lib/errors';
import type { AuditContext } from '../../plugins/audit';
import type { ProjectScope } from '../../domain/scope/project-scope';
import { createDefinitionCache, type PublishedVersion } from '../../domain/crf/definition-cache';
import { recomputeCalcs } from './dependent-calcs';
import { loadPatientContext, type ContextRecord } from './patient-record.repository';
import { externalOf } from './external-values';
import { diffLeaves } from './record-data';
import { writeRecord } from './record-writer';

/**
 * The record side of fields bound to the patient record (`@registry/shared/forms/binding`): the patient is the one
 * source of truth and a record's data keeps its bound values in step with it. Every write of either side writes both
 * in one transaction: a record save that changes a bound value updates the patient (the form-record service, through
 * the patient service), and every patient update (编辑患者, a record save, an import) rewrites the bound values of
 * the patient's records (`syncBoundRecords`, called by the patient service's in-transaction update).
 */

/** A patient's identity values (identity number and phone decrypted) as bindings read them. */
export type BoundValues = Readonly<Record<BoundAttribute, string | null>>;

/** Attributes masked without `patient.pii` (all but the sex). */
export const isPiiAttribute = (a: BoundAttribute): boolean =>
  Object.prototype.hasOwnProperty.call(PATIENT_PHI_MASKS, a);

export const BINDING_MESSAGES = {
  noPii: (label: string) => `没有查看患者身份信息的权限，不能修改绑定患者信息的字段「${label}」`,
  locked: (title: string) => `表单「${title}」已锁定，不能修改其中绑定的患者信息，请先解锁`,
  frozen: '项目已锁定或归档，绑定患者信息的表单数据不能修改',
  synced: '患者信息修改，绑定字段随之更新',
} as const;

/** The data with each bound field holding the patient's value (a blank patient value: no value). */
export function withPatientValues(
  form: FormDefinition,
  data: Readonly<Record<string, unknown>>,
  values: BoundValues,
): Record<string, unknown> {
  const bound = boundFields(form);
  if (bound.length === 0) return { ...data };
  const out: Record<string, unknown> = { ...data };
  for (const { field, attribute } of bound) {
    const value = values[attribute];
    if (value === null || value === '') delete out[field.key];
    else out[field.key] = value;
  }
  return out;
}

/**
 * The bound values as a caller without `patient.pii` sees them: masked exactly as the patient list masks them (the
 * one policy, `phi-mask.ts`), keyed by field key. Sex is shown as it is.
 */
export function maskedBoundValues(form: FormDefinition, values: BoundValues): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { field, attribute } of boundFields(form)) {
    const value = values[attribute];
    if (value !== null && value !== '' && isPiiAttribute(attribute))
      out[field.key] = showPatientValue(attribute, value, false);
  }
  return out;
}

/**
 * The patient attributes a save asks for, checked like 新增患者 (identity number checksum, phone, hospital number …;
 * 400 at the field's key) and normalised (the identity number upper-cased, the phone without spaces). Without
 * `patient.pii` a masked or blank value of an identity attribute means "unchanged", another value is refused (403).
 * Returns the data with the normalised values and the attributes to write (those that differ from the patient).
 */
export function boundInput(
  form: FormDefinition,
  sent: Readonly<Record<string, unknown>>,
  current: BoundValues,
  pii: boolean,
): { data: Record<string, unknown>; changes: Partial<Record<BoundAttribute, string | null>> } {
  const bound = boundFields(form);
  const data: Record<string, unknown> = { ...sent };
  const changes: Partial<Record<BoundAttribute, string | null>> = {};
  const issues: { path: string; message: string }[] = [];
  for (const { field, attribute } of bound) {
    const raw = sent[field.key];
    const now = current[attribute];
    if (!pii && isPiiAttribute(attribute)) {
      const shown = now === null ? null : showPatientValue(attribute, now, false);
      if (isBlankValue(raw) || (typeof raw === 'string' && (raw === shown || isMaskedValue(raw)))) {
        if (now === null) delete data[field.key];
        else data[field.key] = now;
        continue;
      }
      if (!sameValue(raw, now)) throw new AppError(403, BINDING_MESSAGES.noPii(field.label));
      continue;
    }
    if (isBlankValue(raw)) {
      delete data[field.key];
      if (now !== null) {
        if (attribute === 'name') {
          issues.push({ path: field.key, message: `「${field.label}」：请输入患者姓名` });
          continue;
        }
        changes[attribute] = null;
      }
      continue;
    }
    const parsed = PATIENT_ATTRIBUTE_SCHEMAS[attribute].safeParse(raw);
    if (!parsed.success) {
      const message =
        attribute === 'gender'
          ? `「${field.label}」的选项 ${String(raw)} 不在字典中`
          : `「${field.label}」：${parsed.error.issues[0]?.message ?? '格式不正确'}`;
      issues.push({ path: field.key, message });
      continue;
    }
    data[field.key] = parsed.data;
    if (parsed.data !== now) changes[attribute] = parsed.data;
  }
  if (issues.length > 0) throw new AppError(400, issues[0]?.message ?? '患者信息有误', issues);
  return { data, changes };
}

const versionsCache = createDefinitionCache();

/**
 * Rewrites the bound values of the patient's records to `values` (the patient as just updated, inside the caller's
 * transaction), with the calculated fields that read them (an age from a birth date, also in other forms), each
 * record through THE record writer (value versions, one audit event `form_record.patient_sync`). A locked record
 * whose bound value would change refuses the whole change (409): the patient and the record never disagree.
 */
export async function syncBoundRecords(
  tx: Executor,
  auditCtx: AuditContext,
  input: { scope: ProjectScope; patientId: string; values: BoundValues; at: Date },
): Promise<number> {
  const { scope, patientId, values, at } = input;
  const ctx = await loadPatientContext(tx, scope, patientId, { formKey: '', instance: null });
  if (!ctx || ctx.records.length === 0) return 0;
  const versions = await versionsCache.load(
    tx,
    scope.tenantId,
    ctx.records.map((r) => r.versionId),
  );
  const formOf = (r: ContextRecord): { version: PublishedVersion; form: FormDefinition } | undefined => {
    const version = versions.get(r.versionId);
    const form = version?.forms.get(r.formKey);
    return version && form ? { version, form } : undefined;
  };
  // Pass 1: the bound values; pass 2: calculated fields against the other forms as they are after pass 1.
  const after = ctx.records.map((r) => {
    const on = formOf(r);
    return { ...r, data: on ? withPatientValues(on.form, r.data, values) : r.data };
  });
  let written = 0;
  for (const [i, r] of ctx.records.entries()) {
    const on = formOf(r);
    const next = after[i];
    if (!on || !next) continue;
    const engine = {
      missingCodes: on.version.missingCodes,
      external: externalOf(after, versions, r.formKey),
      today: shanghaiDate(at),
    };
    const data = recomputeCalcs(on.form, next.data, engine);
    if (diffLeaves(on.form, r.data, data).length === 0) continue;
    if (r.status === 'locked') throw new AppError(409, BINDING_MESSAGES.locked(on.form.title));
    if (ctx.frozen) throw new AppError(409, BINDING_MESSAGES.frozen);
    await writeRecord(tx, auditCtx, {
      tenantId: scope.tenantId,
      projectId: ctx.patient.subProjectId ?? ctx.patient.projectId,
      patientId,
      form: on.form,
      versionId: r.versionId,
      existing: r,
      data,
      softIssues: validateRecord(on.form, data, { ...engine, mode: 'draft' }).issues,
      status: r.status,
      source: { type: 'manual' },
      reason: BINDING_MESSAGES.synced,
      actorId: scope.userId,
      at,
      action: 'form_record.patient_sync',
    });
    written++;
  }
  return written;
}
