import type { z } from 'zod';
import type { PatientTimelineItem, patientDeathRequest } from '@registry/shared/contracts/followup';
import { shanghaiDate } from '@registry/shared/followup/schedule';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { PhiKeys } from '../../lib/phi-crypto';
import { audit, type AuditContext } from '../../plugins/audit';
import type { AuthContext } from '../auth/session.service';
import { forgetPatientListTotals } from '../patient/patient.service';
import { isUuid, requireProjectScope, type ProjectScope } from '../../domain/scope/project-scope';
import { presentContact, presentTask } from './followup-task.presenter';
import {
  closeOpenTasksOfPatient,
  contactsOf,
  findScopedPatient,
  updatePatientFollowup,
} from './followup-record.repository';
import { patientTasks } from './followup-task.repository';
import { auditPiiRead, hasPii } from './followup-task.service';
import { FOLLOWUP_RECORD_MESSAGES as M } from './followup-record.service';

type DeathInput = z.output<typeof patientDeathRequest>;

export type FollowupPatientService = ReturnType<typeof createFollowupPatientService>;

/** A patient's follow-up as a whole: death (open tasks cancelled) and the timeline of the patient file. */
export function createFollowupPatientService(deps: { db: Db; clock: Clock; keys: PhiKeys }) {
  const { db, clock, keys } = deps;
  const today = () => shanghaiDate(clock.now());

  async function visiblePatient(scope: ProjectScope, id: string) {
    const row = isUuid(id) ? await findScopedPatient(db, scope, id) : undefined;
    if (!row) throw new AppError(404, M.patientNotFound);
    return row;
  }

  return {
    /** The patient died: status `deceased`, date and cause, open tasks cancelled. Answers the tasks cancelled. */
    async death(auth: AuthContext, input: DeathInput, ctx: AuditContext): Promise<{ count: number }> {
      const scope = await requireProjectScope(db, auth);
      const patient = await visiblePatient(scope, input.patientId);
      if (input.deathDate > today())
        throw new AppError(400, M.deathInFuture, [{ path: 'deathDate', message: M.deathInFuture }]);
      if (patient.birthDate && input.deathDate < patient.birthDate)
        throw new AppError(400, M.deathBeforeBirth, [{ path: 'deathDate', message: M.deathBeforeBirth }]);
      const now = clock.now();
      const cancelled = await db.transaction(async (tx) => {
        const row = await updatePatientFollowup(tx, scope, patient.id, {
          status: 'deceased',
          deathDate: input.deathDate,
          deathCause: input.cause,
          updatedBy: scope.userId,
          updatedAt: now,
        });
        if (!row) throw new AppError(404, M.patientNotFound);
        await audit(
          tx,
          ctx,
          {
            action: 'patient.death',
            entityType: 'patient',
            entityId: patient.id,
            oldValue: {
              status: patient.status,
              deathDate: patient.deathDate,
              deathCause: patient.deathCause,
              rowVersion: patient.rowVersion,
            },
            newValue: {
              status: 'deceased',
              deathDate: input.deathDate,
              deathCause: input.cause,
              rowVersion: row.rowVersion,
            },
          },
          now,
        );
        const closed = await closeOpenTasksOfPatient(
          tx,
          { tenantId: scope.tenantId, patientId: patient.id },
          { status: 'cancelled', closedAt: now, closedBy: scope.userId, closedReason: M.deceased },
        );
        for (const t of closed)
          await audit(
            tx,
            ctx,
            {
              action: 'followup_task.cancel',
              entityType: 'followup_task',
              entityId: t.id,
              oldValue: { status: 'open' },
              newValue: { status: 'cancelled', rowVersion: t.rowVersion },
              reason: M.deceased,
            },
            now,
          );
        return closed.length;
      });
      forgetPatientListTotals();
      return { count: cancelled };
    },

    /** The patient's tasks with their contacts, by due date (the patient file). */
    async timeline(auth: AuthContext, patientId: string, ctx: AuditContext): Promise<PatientTimelineItem[]> {
      const scope = await requireProjectScope(db, auth);
      const patient = await visiblePatient(scope, patientId);
      const pii = hasPii(scope);
      if (pii) await auditPiiRead(db, ctx, [patient.id], 'followup/patient/timeline', clock.now());
      const tasks = await patientTasks(db, scope, patient.id, today());
      const contacts = await contactsOf(
        db,
        scope.tenantId,
        tasks.map((t) => t.id),
      );
      return tasks.map((t) => ({
        ...presentTask(t, keys, pii),
        contacts: contacts.filter((c) => c.taskId === t.id).map(presentContact),
      }));
    },
  };
}
