import type { z } from 'zod';
import type {
  ContactVO,
  TaskDetailVO,
  TaskFormVO,
  TaskListItem,
  contactCreateRequest,
  taskCompleteRequest,
  taskFormSaveRequest,
  taskLostRequest,
  taskReopenRequest,
} from '@registry/shared/contracts/followup';
import type { FormRecordVO } from '@registry/shared/contracts/form-record';
import { shanghaiDate } from '@registry/shared/followup/schedule';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { PhiKeys } from '../../lib/phi-crypto';
import { audit, type AuditContext } from '../../plugins/audit';
import type { AuthContext } from '../auth/session.service';
import { createDefinitionCache } from '../../domain/crf/definition-cache';
import type { PatientRecordService } from '../patient-record/patient-record.service';
import { isUuid, requireProjectScope, type ProjectScope } from '../../domain/scope/project-scope';
import { presentContact, presentTask, presentTaskPatient, presentVisit } from './followup-task.presenter';
import { findTask, patientTasks, type TaskDetailRow } from './followup-task.repository';
import {
  closeOpenTasksOfPatient,
  contactsOf,
  findVersionOf,
  hasReachedContact,
  insertContact,
  moveTask,
  taskRecords,
  touchTask,
  updatePatientFollowup,
} from './followup-record.repository';
import { auditPiiRead, FOLLOWUP_TASK_MESSAGES, hasPii } from './followup-task.service';
import { anchorLabel, formsWithRecords, patientProjects, recordOf, visitForms } from './followup-visit-forms';

export const FOLLOWUP_RECORD_MESSAGES = {
  ...FOLLOWUP_TASK_MESSAGES,
  patientNotFound: '患者不存在',
  versionNotFound: '表单版本不存在',
  formNotInVisit: '该表单不属于本次访视',
  contactInFuture: '联系时间不能晚于当前时间',
  needReached: '请先记录一次成功联系',
  formsPending: (titles: string[]) => `请先提交本次访视的表单：${titles.join('、')}`,
  reopenOnlyClosed: '只有已完成或失访的随访任务可以重新打开',
  deathInFuture: '死亡日期不能晚于今天',
  deathBeforeBirth: '死亡日期不能早于出生日期',
  deceased: '患者已死亡',
} as const;
const M = FOLLOWUP_RECORD_MESSAGES;

/** Contact times this far ahead of the server's clock still count as now (the browser's clock may run ahead). */
const CLOCK_SKEW_MS = 60_000;

type ContactInput = z.output<typeof contactCreateRequest>;
type FormSaveInput = z.output<typeof taskFormSaveRequest>;
type CompleteInput = z.output<typeof taskCompleteRequest>;
type ReopenInput = z.output<typeof taskReopenRequest>;
type LostInput = z.output<typeof taskLostRequest>;

export type FollowupRecordService = ReturnType<typeof createFollowupRecordService>;

const SUBMITTED = new Set(['submitted', 'verified', 'locked']);

/**
 * The follow-up record of one task (`/followup/edit`): contacts, the visit's forms through the record writer,
 * complete, reopen, lost to follow-up. The patient's death and timeline are `followup-patient.service.ts`.
 */
export function createFollowupRecordService(deps: {
  db: Db;
  clock: Clock;
  keys: PhiKeys;
  records: PatientRecordService;
}) {
  const { db, clock, keys, records } = deps;
  const cache = createDefinitionCache();
  const today = () => shanghaiDate(clock.now());

  async function visibleTask(scope: ProjectScope, id: string): Promise<TaskDetailRow> {
    const row = isUuid(id) ? await findTask(db, scope, id, today()) : undefined;
    if (!row) throw new AppError(404, M.notFound);
    return row;
  }

  async function taskItem(scope: ProjectScope, id: string): Promise<TaskListItem> {
    return presentTask(await visibleTask(scope, id), keys, hasPii(scope));
  }

  return {
    async detail(auth: AuthContext, id: string, ctx: AuditContext): Promise<TaskDetailVO> {
      const scope = await requireProjectScope(db, auth);
      const task = await visibleTask(scope, id);
      const pii = hasPii(scope);
      const { latest, versions, forms } = await visitForms(db, cache, task);
      const [contacts, others, formVOs] = await Promise.all([
        contactsOf(db, scope.tenantId, [task.id]),
        patientTasks(db, scope, task.patientId, today()),
        formsWithRecords(db, cache, task, forms, pii),
      ]);
      // identity data and the forms' values shown unmasked: the read is audited before the answer leaves
      if (pii) await auditPiiRead(db, ctx, [task.patientId], 'followup/task/detail', clock.now());
      return {
        task: presentTask(task, keys, pii),
        patient: presentTaskPatient(task, keys, pii),
        plan: { id: task.planId, name: task.planName, anchorLabel: anchorLabel(task.planAnchor, versions, latest) },
        visit: presentVisit(task),
        contacts: contacts.map(presentContact),
        versionId: forms[0]?.version.id ?? latest[0] ?? null,
        forms: formVOs,
        otherTasks: others
          .filter((o) => o.id !== task.id)
          .map((o) => ({
            id: o.id,
            planName: o.planName,
            visitName: o.visitName,
            dueDate: o.dueDate,
            state: o.state,
          })),
      };
    },

    /** Records a contact attempt (append-only) of an open task; bumps the task's row version. */
    async contact(auth: AuthContext, input: ContactInput, ctx: AuditContext): Promise<ContactVO> {
      const scope = await requireProjectScope(db, auth);
      const task = await visibleTask(scope, input.taskId);
      const now = clock.now();
      const at = new Date(input.contactedAt);
      if (at.getTime() > now.getTime() + CLOCK_SKEW_MS)
        throw new AppError(400, M.contactInFuture, [{ path: 'contactedAt', message: M.contactInFuture }]);
      if (task.status !== 'open') throw new AppError(409, M.closed);
      const note = input.note?.trim() || null;
      const contactId = await db.transaction(async (tx) => {
        const newId = await insertContact(tx, {
          tenantId: scope.tenantId,
          taskId: task.id,
          patientId: task.patientId,
          contactedAt: at,
          method: input.method,
          outcome: input.outcome,
          note,
          createdBy: scope.userId,
          createdAt: now,
        });
        await touchTask(tx, scope.tenantId, task.id, now);
        await audit(
          tx,
          ctx,
          {
            action: 'followup_task.contact',
            entityType: 'followup_task',
            entityId: task.id,
            newValue: {
              contactId: newId,
              patientId: task.patientId,
              contactedAt: at.toISOString(),
              method: input.method,
              outcome: input.outcome,
              note,
            },
          },
          now,
        );
        return newId;
      });
      const [row] = (await contactsOf(db, scope.tenantId, [task.id])).filter((c) => c.id === contactId);
      if (!row) throw new AppError(404, M.notFound);
      return presentContact(row);
    },

    /**
     * Saves one of the visit's forms through the form-record save (same rules): a repeating form's first save creates
     * the task's own instance, tagged with the task; another form is the patient's one record (tagged when untagged).
     */
    async saveForm(auth: AuthContext, input: FormSaveInput, ctx: AuditContext): Promise<TaskFormVO> {
      const scope = await requireProjectScope(db, auth);
      const task = await visibleTask(scope, input.taskId);
      if (!(await findVersionOf(db, scope.tenantId, input.versionId, patientProjects(task))))
        throw new AppError(404, M.versionNotFound);
      if (!task.visitFormKeys.includes(input.formKey))
        throw new AppError(400, M.formNotInVisit, [{ path: 'formKey', message: M.formNotInVisit }]);
      if (task.status !== 'open') throw new AppError(409, M.closed);
      const { forms } = await visitForms(db, cache, task);
      const vf = forms.find((f) => f.formKey === input.formKey);
      if (!vf) throw new AppError(400, M.formNotInVisit, [{ path: 'formKey', message: M.formNotInVisit }]);
      const repeating = vf.form.repeating === true;
      const [existing] = await taskRecords(
        db,
        { tenantId: task.tenantId, patientId: task.patientId, taskId: task.id },
        [{ formKey: vf.formKey, repeating }],
      );
      const saved: FormRecordVO = await records.save(
        auth,
        {
          patientId: task.patientId,
          formKey: vf.formKey,
          ...(existing ? { instance: existing.instance } : repeating ? {} : { instance: 1 }),
          rowVersion: input.rowVersion ?? 0,
          data: input.data,
          action: input.submit ? 'submit' : 'draft',
          ...(input.reason !== undefined ? { reason: input.reason } : {}),
        },
        ctx,
        { followupTaskId: task.id },
      );
      return {
        formKey: vf.formKey,
        title: vf.title,
        record:
          saved.id === null || saved.rowVersion === 0
            ? null
            : {
                id: saved.id,
                instance: saved.instance,
                versionId: saved.versionId,
                status: saved.status,
                data: saved.data,
                rowVersion: saved.rowVersion,
                updatedAt: saved.updatedAt ?? clock.now().toISOString(),
              },
      };
    },

    /** Closes the visit: every visit form submitted and, unless an outpatient visit, a contact that reached them. */
    async complete(auth: AuthContext, input: CompleteInput, ctx: AuditContext): Promise<TaskListItem> {
      const scope = await requireProjectScope(db, auth);
      const task = await visibleTask(scope, input.taskId);
      if (task.status !== 'open') throw new AppError(409, M.closed);
      if (task.rowVersion !== input.rowVersion) throw new AppError(409, M.stale);
      const { forms } = await visitForms(db, cache, task);
      const rows = await taskRecords(
        db,
        { tenantId: task.tenantId, patientId: task.patientId, taskId: task.id },
        forms.map((f) => ({ formKey: f.formKey, repeating: f.form.repeating === true })),
      );
      const pending = forms.filter((f) => !SUBMITTED.has(recordOf(f, rows)?.status ?? 'none')).map((f) => f.title);
      if (pending.length > 0) throw new AppError(409, M.formsPending(pending));
      if (task.contactMethod !== 'outpatient' && !(await hasReachedContact(db, scope.tenantId, task.id)))
        throw new AppError(409, M.needReached);
      const now = clock.now();
      await db.transaction(async (tx) => {
        const moved = await moveTask(
          tx,
          { tenantId: scope.tenantId, id: task.id, from: ['open'], rowVersion: input.rowVersion },
          { status: 'done', closedAt: now, closedBy: scope.userId, closedReason: null, updatedAt: now },
        );
        if (!moved) throw new AppError(409, M.stale);
        await audit(
          tx,
          ctx,
          {
            action: 'followup_task.complete',
            entityType: 'followup_task',
            entityId: task.id,
            oldValue: { status: task.status, rowVersion: task.rowVersion },
            newValue: {
              status: 'done',
              rowVersion: moved.rowVersion,
              patientId: task.patientId,
              records: rows.map((r) => r.id),
            },
          },
          now,
        );
      });
      return taskItem(scope, task.id);
    },

    /** A done or lost task back to open (the reason audited). */
    async reopen(auth: AuthContext, input: ReopenInput, ctx: AuditContext): Promise<TaskListItem> {
      const scope = await requireProjectScope(db, auth);
      const task = await visibleTask(scope, input.taskId);
      if (task.status !== 'done' && task.status !== 'lost') throw new AppError(409, M.reopenOnlyClosed);
      if (task.patientStatus === 'deceased') throw new AppError(409, M.deceased);
      const now = clock.now();
      await db.transaction(async (tx) => {
        const moved = await moveTask(
          tx,
          { tenantId: scope.tenantId, id: task.id, from: ['done', 'lost'] },
          { status: 'open', closedAt: null, closedBy: null, closedReason: null, updatedAt: now },
        );
        if (!moved) throw new AppError(409, M.stale);
        await audit(
          tx,
          ctx,
          {
            action: 'followup_task.reopen',
            entityType: 'followup_task',
            entityId: task.id,
            oldValue: { status: task.status, closedReason: task.closedReason, rowVersion: task.rowVersion },
            newValue: { status: 'open', rowVersion: moved.rowVersion },
            reason: input.reason,
          },
          now,
        );
      });
      return taskItem(scope, task.id);
    },

    /** Lost to follow-up: this open task, or (`wholePatient`) the patient and all their open tasks. */
    async lost(auth: AuthContext, input: LostInput, ctx: AuditContext): Promise<TaskListItem> {
      const scope = await requireProjectScope(db, auth);
      const task = await visibleTask(scope, input.taskId);
      if (task.status !== 'open' && !input.wholePatient) throw new AppError(409, M.closed);
      const now = clock.now();
      const closing = { status: 'lost' as const, closedAt: now, closedBy: scope.userId, closedReason: input.reason };
      await db.transaction(async (tx) => {
        let closed: { id: string; rowVersion: number }[];
        if (input.wholePatient) {
          const patient = await updatePatientFollowup(tx, scope, task.patientId, {
            followupLostAt: now,
            followupLostReason: input.reason,
            updatedBy: scope.userId,
            updatedAt: now,
          });
          if (!patient) throw new AppError(404, M.patientNotFound);
          await audit(
            tx,
            ctx,
            {
              action: 'patient.followup_lost',
              entityType: 'patient',
              entityId: task.patientId,
              oldValue: { lostAt: task.lostAt?.toISOString() ?? null, lostReason: task.lostReason },
              newValue: { lostAt: now.toISOString(), lostReason: input.reason, rowVersion: patient.rowVersion },
              reason: input.reason,
            },
            now,
          );
          closed = await closeOpenTasksOfPatient(tx, { tenantId: scope.tenantId, patientId: task.patientId }, closing);
        } else {
          const moved = await moveTask(
            tx,
            { tenantId: scope.tenantId, id: task.id, from: ['open'] },
            { ...closing, updatedAt: now },
          );
          if (!moved) throw new AppError(409, M.closed);
          closed = [moved];
        }
        for (const t of closed)
          await audit(
            tx,
            ctx,
            {
              action: 'followup_task.lost',
              entityType: 'followup_task',
              entityId: t.id,
              oldValue: { status: 'open' },
              newValue: { status: 'lost', rowVersion: t.rowVersion, wholePatient: input.wholePatient },
              reason: input.reason,
            },
            now,
          );
      });
      return taskItem(scope, task.id);
    },
  };
}
