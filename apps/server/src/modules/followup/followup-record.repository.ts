import { and, asc, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { followupContacts, followupTasks, formRecords, formVersions, patients, users } from '../../db/schema';
import { patientScope } from '../../domain/scope/patient-scope.repository';
import type { ProjectScope } from '../../domain/scope/project-scope';

/**
 * The record of one task (`followup-record.service.ts`): its moves (complete, reopen, lost, cancelled), contacts, the
 * records of the visit's forms, and the patient's follow-up columns (lost, death). Tasks are read through
 * `followup-task.repository.ts` (THE task scope).
 */

/**
 * Moves one task from one of `from` to `set.status`, guarded by its row version when given: undefined when the task
 * moved meanwhile.
 */
export async function moveTask(
  tx: Executor,
  key: { tenantId: string; id: string; from: readonly string[]; rowVersion?: number },
  set: Partial<typeof followupTasks.$inferInsert>,
) {
  const [row] = await tx
    .update(followupTasks)
    .set({ ...set, rowVersion: sql`${followupTasks.rowVersion} + 1` })
    .where(
      and(
        eq(followupTasks.tenantId, key.tenantId),
        eq(followupTasks.id, key.id),
        inArray(followupTasks.status, [...key.from] as ('open' | 'done' | 'lost' | 'cancelled')[]),
        key.rowVersion !== undefined ? eq(followupTasks.rowVersion, key.rowVersion) : undefined,
      ),
    )
    .returning({ id: followupTasks.id, rowVersion: followupTasks.rowVersion });
  return row;
}

/** Closes every open task of a patient (lost or cancelled); answers them. */
export async function closeOpenTasksOfPatient(
  tx: Executor,
  key: { tenantId: string; patientId: string },
  set: { status: 'lost' | 'cancelled'; closedAt: Date; closedBy: string; closedReason: string },
) {
  return tx
    .update(followupTasks)
    .set({ ...set, updatedAt: set.closedAt, rowVersion: sql`${followupTasks.rowVersion} + 1` })
    .where(
      and(
        eq(followupTasks.tenantId, key.tenantId),
        eq(followupTasks.patientId, key.patientId),
        eq(followupTasks.status, 'open'),
      ),
    )
    .returning({ id: followupTasks.id, rowVersion: followupTasks.rowVersion });
}

/** Bumps a task's row version (a contact was recorded). */
export async function touchTask(tx: Executor, tenantId: string, id: string, at: Date) {
  await tx
    .update(followupTasks)
    .set({ updatedAt: at, rowVersion: sql`${followupTasks.rowVersion} + 1` })
    .where(and(eq(followupTasks.tenantId, tenantId), eq(followupTasks.id, id)));
}

export async function insertContact(tx: Executor, values: typeof followupContacts.$inferInsert) {
  const [row] = await tx.insert(followupContacts).values(values).returning({ id: followupContacts.id });
  if (!row) throw new Error('contact insert returned no row');
  return row.id;
}

/** The contacts of tasks, newest first. */
export async function contactsOf(db: Executor, tenantId: string, taskIds: string[]) {
  if (taskIds.length === 0) return [];
  return db
    .select({
      id: followupContacts.id,
      taskId: followupContacts.taskId,
      contactedAt: followupContacts.contactedAt,
      method: followupContacts.method,
      outcome: followupContacts.outcome,
      note: followupContacts.note,
      createdByName: users.name,
      createdAt: followupContacts.createdAt,
    })
    .from(followupContacts)
    .leftJoin(users, eq(users.id, followupContacts.createdBy))
    .where(and(eq(followupContacts.tenantId, tenantId), inArray(followupContacts.taskId, taskIds)))
    .orderBy(desc(followupContacts.contactedAt), desc(followupContacts.createdAt));
}
export type ContactRow = Awaited<ReturnType<typeof contactsOf>>[number];

/** Whether a contact of the task reached the patient. */
export async function hasReachedContact(db: Executor, tenantId: string, taskId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: followupContacts.id })
    .from(followupContacts)
    .where(
      and(
        eq(followupContacts.tenantId, tenantId),
        eq(followupContacts.taskId, taskId),
        eq(followupContacts.outcome, 'reached'),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * The live records a task's forms show: of the repeating forms, the instance tagged with the task; of the others, the
 * patient's one record (instance 1).
 */
export async function taskRecords(
  db: Executor,
  key: { tenantId: string; patientId: string; taskId: string },
  forms: { formKey: string; repeating: boolean }[],
) {
  if (forms.length === 0) return [];
  const repeating = forms.filter((f) => f.repeating).map((f) => f.formKey);
  const single = forms.filter((f) => !f.repeating).map((f) => f.formKey);
  return db
    .select({
      id: formRecords.id,
      formKey: formRecords.formKey,
      instance: formRecords.instance,
      versionId: formRecords.versionId,
      status: formRecords.status,
      data: formRecords.data,
      rowVersion: formRecords.rowVersion,
      updatedAt: formRecords.updatedAt,
      followupTaskId: formRecords.followupTaskId,
    })
    .from(formRecords)
    .where(
      and(
        eq(formRecords.tenantId, key.tenantId),
        eq(formRecords.patientId, key.patientId),
        isNull(formRecords.deletedAt),
        or(
          repeating.length > 0
            ? and(inArray(formRecords.formKey, repeating), eq(formRecords.followupTaskId, key.taskId))
            : undefined,
          single.length > 0 ? and(inArray(formRecords.formKey, single), eq(formRecords.instance, 1)) : undefined,
        ),
      ),
    )
    .orderBy(asc(formRecords.formKey), asc(formRecords.instance));
}
export type TaskRecordRow = Awaited<ReturnType<typeof taskRecords>>[number];

/** A published version of the tenant belonging to one of these projects, or undefined. */
export async function findVersionOf(db: Executor, tenantId: string, versionId: string, projectIds: string[]) {
  const [row] = await db
    .select({ id: formVersions.id })
    .from(formVersions)
    .where(
      and(
        eq(formVersions.tenantId, tenantId),
        eq(formVersions.id, versionId),
        inArray(formVersions.projectId, projectIds),
      ),
    )
    .limit(1);
  return row;
}

/** A visible patient with what the death and timeline calls need. */
export async function findScopedPatient(db: Executor, scope: ProjectScope, patientId: string) {
  const [row] = await db
    .select({
      id: patients.id,
      patientNo: patients.patientNo,
      birthDate: patients.birthDate,
      status: patients.status,
      deathDate: patients.deathDate,
      deathCause: patients.deathCause,
      rowVersion: patients.rowVersion,
    })
    .from(patients)
    .where(and(patientScope(scope), eq(patients.id, patientId)))
    .limit(1);
  return row;
}

/** Updates a visible patient's follow-up columns (and status); answers the new row version. */
export async function updatePatientFollowup(
  tx: Executor,
  scope: ProjectScope,
  patientId: string,
  set: Partial<typeof patients.$inferInsert>,
) {
  const [row] = await tx
    .update(patients)
    .set({ ...set, rowVersion: sql`${patients.rowVersion} + 1` })
    .where(and(patientScope(scope), eq(patients.id, patientId)))
    .returning({ id: patients.id, rowVersion: patients.rowVersion });
  return row;
}
