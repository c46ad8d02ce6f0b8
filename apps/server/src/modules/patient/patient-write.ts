import { idNumberFacts, type patientCreateRequest, type PatientStatus } from '@registry/shared/contracts/patient';
import type { BoundAttribute } from '@registry/shared/forms/binding';
import { showPatientValue } from '@registry/shared/phi-mask';
import type { z } from 'zod';
import type { Executor } from '../../db/client';
import type { ProjectScope } from '../../domain/scope/project-scope';
import { AppError } from '../../lib/errors';
import { blindIndex, decryptPhi, encryptPhi, type PhiKeys } from '../../lib/phi-crypto';
import { audit, type AuditContext } from '../../plugins/audit';
import { syncBoundRecords } from '../patient-record/patient-binding';
import { M, type EditableField, type PatientUpdatePlan, type PatientValues } from './patient-checks';
import { forgetPatientListTotals } from './patient-page';
import {
  insertPatientRow,
  nextPatientSeq,
  updatePatientRow,
  type PatientInsert,
  type PatientRow,
} from './patient.repository';

/**
 * The writes of a patient inside the caller's transaction — add, and an edit planned then written — with their audit
 * events; shared by 新增/编辑患者, the Excel import and the CRF fields bound to the patient.
 */

type CreateInput = z.output<typeof patientCreateRequest>;

/** Identity data as it may enter the audit trail: masked, never plaintext. */
type AuditValues = Record<string, string | null>;

const BOUND_ATTRIBUTES: ReadonlySet<string> = new Set<BoundAttribute>([
  'name',
  'gender',
  'birthDate',
  'idNumber',
  'phone',
  'hospitalNo',
]);

const auditValues = (v: {
  name?: string | null;
  gender?: string | null;
  birthDate?: string | null;
  hospitalNo?: string | null;
  idNumber?: string | null;
  phone?: string | null;
  centerId?: string | null;
  enrolDate?: string | null;
  status?: string | null;
}): AuditValues => {
  const out: AuditValues = {};
  for (const [k, value] of Object.entries(v)) {
    if (value === undefined) continue;
    // The trail keeps only the masked form of identity values (the one policy, `@registry/shared/phi-mask`).
    out[k] = showPatientValue(k, value, false);
  }
  return out;
};

/** The current values of a patient (identity data decrypted), as the edits compare them. */
export function patientValues(keys: PhiKeys, before: PatientRow): PatientValues {
  return {
    name: before.name,
    gender: before.gender,
    birthDate: before.birthDate,
    hospitalNo: before.hospitalNo,
    idNumber: before.idNumberEnc ? decryptPhi(keys, before.idNumberEnc) : null,
    phone: before.phoneEnc ? decryptPhi(keys, before.phoneEnc) : null,
    centerId: before.centerId,
    enrolDate: before.enrolDate,
    status: before.status,
  };
}

/**
 * What an edit changes: the current values (identity data decrypted), the next ones (`undefined` keeps a value,
 * null clears it) and the changed fields; a new identity number fills an empty birth date and gender, as on add.
 */
export function planPatientUpdate(
  keys: PhiKeys,
  before: PatientRow,
  input: Partial<Record<EditableField, string | null>>,
): PatientUpdatePlan {
  const old = patientValues(keys, before);
  const next = { ...old };
  const changed: EditableField[] = [];
  for (const k of Object.keys(old) as EditableField[]) {
    const value = input[k];
    if (value === undefined || value === old[k]) continue;
    next[k] = value;
    changed.push(k);
  }
  const facts = changed.includes('idNumber') && next.idNumber ? idNumberFacts(next.idNumber) : null;
  if (facts && next.birthDate === null && input.birthDate === undefined) {
    next.birthDate = facts.birthDate;
    changed.push('birthDate');
  }
  if (facts && next.gender === null && input.gender === undefined) {
    next.gender = facts.gender;
    changed.push('gender');
  }
  return { before, old, next, changed };
}

export function createPatientWrites(keys: PhiKeys) {
  /**
   * Inserts a new patient inside the caller's transaction: the project sequence number and patient number, identity
   * number and phone encrypted with their blind indexes, birth date and gender filled from the identity number when
   * absent, and the `patient.create` audit event (identity data masked). The caller has checked the center (open, in
   * scope), the identity rules and duplicates; the unique indexes still refuse a duplicate that raced in (23505).
   */
  async function insertPatient(
    tx: Executor,
    scope: ProjectScope,
    center: { id: string; code: string },
    input: Omit<CreateInput, 'centerId'>,
    ctx: AuditContext,
    now: Date,
  ): Promise<{ id: string; patientNo: string }> {
    forgetPatientListTotals(); // and again after the commit: the callers do
    const facts = input.idNumber ? idNumberFacts(input.idNumber) : null;
    const seq = await nextPatientSeq(tx, scope.rootProjectId);
    const patientNo = `${center.code}-${String(seq).padStart(4, '0')}`;
    const values: PatientInsert = {
      tenantId: scope.tenantId,
      projectId: scope.rootProjectId,
      subProjectId: scope.projectId !== scope.rootProjectId ? scope.projectId : null,
      centerId: center.id,
      seq,
      patientNo,
      name: input.name,
      gender: input.gender ?? facts?.gender ?? null,
      birthDate: input.birthDate ?? facts?.birthDate ?? null,
      hospitalNo: input.hospitalNo ?? null,
      idNumberEnc: input.idNumber ? encryptPhi(keys, input.idNumber) : null,
      idNumberBi: input.idNumber ? blindIndex(keys, input.idNumber) : null,
      phoneEnc: input.phone ? encryptPhi(keys, input.phone) : null,
      phoneBi: input.phone ? blindIndex(keys, input.phone) : null,
      enrolDate: input.enrolDate ?? null,
      status: input.status ?? 'screening',
      createdBy: scope.userId,
      createdAt: now,
      updatedBy: scope.userId,
      updatedAt: now,
    };
    const row = await insertPatientRow(tx, values);
    await audit(
      tx,
      ctx,
      {
        action: 'patient.create',
        entityType: 'patient',
        entityId: row.id,
        newValue: {
          patientNo,
          ...auditValues({
            name: input.name,
            gender: values.gender,
            birthDate: values.birthDate,
            hospitalNo: values.hospitalNo,
            idNumber: input.idNumber ?? null,
            phone: input.phone ?? null,
            centerId: center.id,
            enrolDate: values.enrolDate,
            status: values.status,
          }),
        },
      },
      now,
    );
    return { id: row.id, patientNo };
  }

  /**
   * Writes a planned edit inside the caller's transaction: `UPDATE … WHERE row_version` (409 when someone saved in
   * between), identity data re-encrypted with new blind indexes, and the `patient.update` audit event with the old
   * and new values of the changed fields (identity data masked). The caller has checked center, identity rules and
   * duplicates.
   */
  async function writeUpdate(
    tx: Executor,
    scope: ProjectScope,
    plan: PatientUpdatePlan,
    rowVersion: number,
    ctx: AuditContext,
    now: Date,
  ): Promise<void> {
    forgetPatientListTotals(); // and again after the commit: the callers do
    const { before, old, next, changed } = plan;
    const set: Partial<PatientInsert> = {};
    for (const k of changed) {
      if (k === 'idNumber') {
        set.idNumberEnc = next.idNumber ? encryptPhi(keys, next.idNumber) : null;
        set.idNumberBi = next.idNumber ? blindIndex(keys, next.idNumber) : null;
      } else if (k === 'phone') {
        set.phoneEnc = next.phone ? encryptPhi(keys, next.phone) : null;
        set.phoneBi = next.phone ? blindIndex(keys, next.phone) : null;
      } else if (k === 'name') set.name = next.name ?? before.name;
      else if (k === 'status') set.status = (next.status ?? before.status) as PatientStatus;
      else if (k === 'centerId') set.centerId = next.centerId ?? before.centerId;
      else set[k] = next[k];
    }
    const row = await updatePatientRow(tx, scope, before.id, rowVersion, {
      ...set,
      updatedBy: scope.userId,
      updatedAt: now,
    });
    if (!row) throw new AppError(409, M.stale);
    // The CRF fields bound to the patient follow it in the same transaction.
    if (changed.some((k) => BOUND_ATTRIBUTES.has(k)))
      await syncBoundRecords(tx, ctx, { scope, patientId: before.id, values: next, at: now });
    const pick = (v: PatientValues) => auditValues(Object.fromEntries(changed.map((k) => [k, v[k]])));
    await audit(
      tx,
      ctx,
      {
        action: 'patient.update',
        entityType: 'patient',
        entityId: before.id,
        oldValue: { rowVersion: before.rowVersion, ...pick(old) },
        newValue: { rowVersion: row.rowVersion, ...pick(next) },
      },
      now,
    );
  }

  return {
    insertPatient,
    valuesOf: (before: PatientRow) => patientValues(keys, before),
    planUpdate: (before: PatientRow, input: Partial<Record<EditableField, string | null>>) =>
      planPatientUpdate(keys, before, input),
    writeUpdate,
  };
}
