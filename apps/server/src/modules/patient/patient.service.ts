import {
  type patientCreateRequest,
  type patientUpdateRequest,
  type PatientVO,
} from '@registry/shared/contracts/patient';
import type { BoundAttribute } from '@registry/shared/forms/binding';
import type { z } from 'zod';
import type { Db, Executor } from '../../db/client';
import type { PatientFollowupSync } from '../../domain/patient-change/followup-sync';
import { requireProjectScope, type ProjectScope } from '../../domain/scope/project-scope';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { blindIndex, type PhiKeys } from '../../lib/phi-crypto';
import { audit, type AuditContext } from '../../plugins/audit';
import type { AuthContext } from '../auth/session.service';
import type { BoundValues } from '../patient-record/patient-binding';
import { createPatientChecks, hasPii, M, piiRead, type PatientUpdatePlan } from './patient-checks';
import { createPatientPage, forgetPatientListTotals } from './patient-page';
import { createPatientWrites } from './patient-write';
import { presentPatient } from './patient.presenter';
import { findProjectDuplicates, findVisiblePatients, softDeletePatients } from './patient.repository';

/**
 * Patients: the list page (patient-page.ts), one patient, add, edit and soft delete; the writes inside a transaction
 * (patient-write.ts) are shared with the Excel import and the CRF fields bound to the patient; the checks and
 * messages: patient-checks.ts.
 */

export type { PatientRow } from './patient.repository';
export {
  identityIssues,
  PATIENT_MESSAGES,
  type EditableField,
  type PatientUpdatePlan,
  type PatientValues,
} from './patient-checks';
export { forgetPatientListTotals } from './patient-page';

type CreateInput = z.output<typeof patientCreateRequest>;
type UpdateInput = z.output<typeof patientUpdateRequest>;

export type PatientService = ReturnType<typeof createPatientService>;

export function createPatientService(deps: {
  db: Db;
  clock: Clock;
  keys: PhiKeys;
  /** The follow-up kept in step with each change, in its transaction (the follow-up module's, from buildApp). */
  followup: PatientFollowupSync;
}) {
  const { db, clock, keys, followup } = deps;
  const { visible, checkConsistency, refuseDuplicates, onUniqueViolation, resolveCenter } = createPatientChecks(db);
  const { insertPatient, valuesOf, planUpdate, writeUpdate } = createPatientWrites(keys);
  const page = createPatientPage({ db, clock, keys });

  return {
    /** For the import (`modules/patient-import`): the same writes as add and edit, inside the caller's transaction. */
    insertInTransaction: insertPatient,
    /** For the import: the visible patients its rows name by patient or hospital number, read by the caller's executor. */
    findVisible: (ex: Executor, scope: ProjectScope, keys: Parameters<typeof findVisiblePatients>[2]) =>
      findVisiblePatients(ex, scope, keys),
    /** For the import: the live patients of the whole project holding these hospital numbers or identity numbers. */
    findDuplicates: (ex: Executor, rootProjectId: string, keys: Parameters<typeof findProjectDuplicates>[2]) =>
      findProjectDuplicates(ex, rootProjectId, keys),
    planUpdate,
    updateInTransaction: writeUpdate,

    /**
     * For the CRF fields bound to the patient (`modules/patient-record`): the patient's identity values, in
     * clear (the caller masks them for a user without `patient.pii`). 404 outside the caller's scope.
     */
    async boundValues(scope: ProjectScope, patientId: string): Promise<BoundValues> {
      return valuesOf(await visible(scope, patientId));
    },

    /**
     * A record save's change of bound attributes, checked exactly as 编辑患者 checks it (identity number, birth date
     * and sex agree; identity and hospital numbers unique in the project: 400 / 409), or null when nothing changes.
     */
    async planBoundUpdate(
      scope: ProjectScope,
      patientId: string,
      changes: Partial<Record<BoundAttribute, string | null>>,
    ): Promise<PatientUpdatePlan | null> {
      const before = await visible(scope, patientId);
      const plan = planUpdate(before, changes);
      const { next, changed } = plan;
      if (changed.length === 0) return null;
      if (changed.some((k) => k === 'idNumber' || k === 'birthDate' || k === 'gender')) checkConsistency(next);
      await refuseDuplicates(
        scope,
        {
          idNumberBi: changed.includes('idNumber') && next.idNumber ? blindIndex(keys, next.idNumber) : null,
          hospitalNo: changed.includes('hospitalNo') ? next.hospitalNo : null,
        },
        before.id,
      );
      return plan;
    },

    /** Writes a planned bound change inside the record save's transaction (audited `patient.update`, follow-up sync). */
    async applyBoundUpdate(tx: Executor, scope: ProjectScope, plan: PatientUpdatePlan, ctx: AuditContext, now: Date) {
      await writeUpdate(tx, scope, plan, plan.before.rowVersion, ctx, now);
      await followup.syncPatient(tx, ctx, plan.before.id, now);
      forgetPatientListTotals();
    },

    page,

    async get(auth: AuthContext, id: string, ctx: AuditContext): Promise<PatientVO> {
      const scope = await requireProjectScope(db, auth);
      const pii = hasPii(scope);
      const row = await db.transaction(async (tx) => {
        const found = await visible(scope, id, tx);
        if (pii) await piiRead(tx, ctx, [found.id], found.id, clock.now());
        return found;
      });
      return presentPatient(row, keys, pii);
    },

    async create(auth: AuthContext, input: CreateInput, ctx: AuditContext): Promise<PatientVO> {
      const scope = await requireProjectScope(db, auth);
      const center = await resolveCenter(scope, input.centerId);
      checkConsistency(input);
      const dup = {
        idNumberBi: input.idNumber ? blindIndex(keys, input.idNumber) : null,
        hospitalNo: input.hospitalNo ?? null,
      };
      await refuseDuplicates(scope, dup);
      const now = clock.now();
      const { id } = await onUniqueViolation(scope, dup, undefined, () =>
        db.transaction(async (tx) => {
          const created = await insertPatient(tx, scope, center, input, ctx, now);
          await followup.syncPatient(tx, ctx, created.id, now); // follow-up plans by rule, their tasks
          return created;
        }),
      );
      forgetPatientListTotals();
      return presentPatient(await visible(scope, id), keys, hasPii(scope));
    },

    async update(auth: AuthContext, input: UpdateInput, ctx: AuditContext): Promise<PatientVO> {
      const scope = await requireProjectScope(db, auth);
      const before = await visible(scope, input.id);
      const plan = planUpdate(before, input);
      const { next, changed } = plan;
      if (input.rowVersion !== before.rowVersion) throw new AppError(409, M.stale);
      if (changed.length === 0) return presentPatient(before, keys, hasPii(scope));
      if (changed.includes('centerId')) await resolveCenter(scope, next.centerId ?? undefined);
      if (changed.some((k) => k === 'idNumber' || k === 'birthDate' || k === 'gender')) checkConsistency(next);
      const dup = {
        idNumberBi: changed.includes('idNumber') && next.idNumber ? blindIndex(keys, next.idNumber) : null,
        hospitalNo: changed.includes('hospitalNo') ? next.hospitalNo : null,
      };
      await refuseDuplicates(scope, dup, before.id);
      const now = clock.now();
      await onUniqueViolation(scope, dup, before.id, () =>
        db.transaction(async (tx) => {
          await writeUpdate(tx, scope, plan, input.rowVersion, ctx, now);
          await followup.syncPatient(tx, ctx, before.id, now); // anchors, rules, deceased: tasks follow the patient
        }),
      );
      forgetPatientListTotals();
      return presentPatient(await visible(scope, before.id), keys, hasPii(scope));
    },

    async remove(auth: AuthContext, ids: string[], reason: string | undefined, ctx: AuditContext) {
      const scope = await requireProjectScope(db, auth);
      const why = reason?.trim();
      if (!why) throw new AppError(400, M.reasonRequired, [{ path: 'reason', message: M.reasonRequired }]);
      const unique = [...new Set(ids.map((x) => x.toLowerCase()))];
      const now = clock.now();
      const deleted = await db.transaction(async (tx) => {
        const rows = await softDeletePatients(tx, scope, unique, {
          deletedAt: now,
          deleteReason: why,
          updatedBy: scope.userId,
          updatedAt: now,
        });
        // All or nothing: an id that is missing, deleted or outside the scope answers 404 and nothing changes.
        if (rows.length !== unique.length) throw new AppError(404, M.notFound);
        for (const row of rows) {
          await audit(
            tx,
            ctx,
            {
              action: 'patient.delete',
              entityType: 'patient',
              entityId: row.id,
              oldValue: { patientNo: row.patientNo },
              newValue: { deleted: true },
              reason: why,
            },
            now,
          );
          await followup.syncPatient(tx, ctx, row.id, now); // open follow-up tasks cancelled, assignments stopped
        }
        return rows.length;
      });
      forgetPatientListTotals();
      return { deleted };
    },
  };
}
