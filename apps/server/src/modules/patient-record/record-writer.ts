import { randomUUID } from 'node:crypto';
import type { RecordIssue } from '@registry/shared/contracts/form-definition';
import type { RecordStatus, ValueSource } from '@registry/shared/contracts/form-record';
import type { FormDefinition } from '@registry/shared/forms/definition';
import type { Executor } from '../../db/client';
import { AppError } from '../../lib/errors';
import { auditRow, type AuditContext } from '../../plugins/audit';
import { RECORD_MESSAGES as M } from './patient-record.messages';
import { liveAutoQueries } from './data-query.repository';
import { applyRecordWrite, nextInstance, type RecordInsert, type RecordRow } from './patient-record.repository';
import { diffLeaves, fieldOfPath, isPhiPath, phiKeys } from './record-data';

/** Where the values of a write came from (`calc` is the writer's own: calculated and server-cleared values). */
export type RecordValueSource = {
  type: Exclude<ValueSource, 'calc'>;
  /** import `{ batchId, fileName, row }`; recognition `{ documentId, page, box }`; null for manual entry. */
  ref?: Record<string, unknown> | null;
};

/** The record as stored before the write (what the caller read; its `rowVersion` is the one the write expects). */
export type ExistingRecord = Pick<RecordRow, 'id' | 'instance' | 'status' | 'rowVersion' | 'data'> & {
  /** The version the record is on: named in the audit event's old value when given (a version migration gives it). */
  versionId?: string;
};

export type RecordWrite = {
  tenantId: string;
  /** The record's project: the patient's sub-project cohort when it has one, else the patient's project. */
  projectId: string;
  patientId: string;
  form: FormDefinition;
  /**
   * The published version `data` was checked against: a new record is entered with it, an updated one moves to it (the
   * edit page passes the record's own version; an import the current one, whose template it filled).
   */
  versionId: string;
  /** The stored record, or null to create one. */
  existing: ExistingRecord | null;
  /** A new record's instance: 1 for a non-repeating form; 'next' = the repeating form's next free number. */
  instance?: number | 'next';
  /** The data to store, already normalised by the engine (`validateRecord(...).data`, no hard issue). */
  data: Record<string, unknown>;
  /** Soft issues of `data` (the engine's verdict): each one not raised before opens an auto query. */
  softIssues: readonly RecordIssue[];
  /**
   * Soft issues of `existing.data`, when the caller has them (computed in memory, saves a read); omitted: the
   * record's auto queries not yet closed stand for them.
   */
  previousSoftIssues?: readonly RecordIssue[];
  status: RecordStatus;
  source: RecordValueSource;
  /** Why (required by the caller's rules once submitted); kept on every value version and in the audit event. */
  reason?: string | null;
  /** Paths the server set rather than the source (hidden fields it cleared); calc fields count as such anyway. */
  derivedPaths?: ReadonlySet<string>;
  actorId: string;
  at: Date;
  /** The audit action; default create / submit (draft → submitted) / update. */
  action?: string;
  /**
   * The follow-up task the record is filled for: set on a new record, and on an existing one that carries
   * no task yet (a record already tagged keeps its task).
   */
  followupTaskId?: string;
  /** Write even when neither data nor status change (a record moved to another version: `versionId` changes). */
  force?: boolean;
};

export type RecordWriteResult = {
  /** false: nothing changed (no data, no status), nothing written; `record` is `existing` as it was. */
  written: boolean;
  record: RecordRow | (ExistingRecord & { versionId: string });
  /** The changed leaf paths. */
  changes: { path: string; before: unknown; after: unknown }[];
  queriesOpened: number;
  queriesClosed: number;
};

const PHI_MARK = '[PHI]';
const issueKey = (i: { path: string; message: string }) => `${i.path}\u0000${i.message}`;

/** The status columns a transition sets: who and when for the new status, cleared marks of a status left behind. */
function statusColumns(from: RecordStatus | null, to: RecordStatus, actorId: string, at: Date): Partial<RecordInsert> {
  const set: Partial<RecordInsert> = {};
  if (from === to) return set;
  if (to === 'submitted' && (from === null || from === 'draft'))
    Object.assign(set, { submittedBy: actorId, submittedAt: at });
  if (to === 'submitted' && from === 'verified') Object.assign(set, { verifiedBy: null, verifiedAt: null });
  if (to === 'verified') Object.assign(set, { verifiedBy: actorId, verifiedAt: at });
  if (to === 'locked') Object.assign(set, { lockedBy: actorId, lockedAt: at });
  if (from === 'locked') Object.assign(set, { lockedBy: null, lockedAt: null });
  if (to === 'draft') Object.assign(set, { submittedBy: null, submittedAt: null, verifiedBy: null, verifiedAt: null });
  return set;
}

function defaultAction(existing: ExistingRecord | null, status: RecordStatus): string {
  if (!existing) return 'form_record.create';
  if (existing.status === 'draft' && status === 'submitted') return 'form_record.submit';
  return 'form_record.update';
}

/**
 * THE write of a CRF record change: the record row (insert, or update guarded by its row version: 409
 * '该表单已被他人修改，请刷新后查看变更' when someone saved in between, also when a concurrent create took the
 * instance), one `record_value_versions` row per changed leaf path, auto queries opened for new soft issues and closed
 * for those gone, and ONE audit event with the old and new values of the changed paths (values of `phi` fields as
 * '[PHI]'). A write that changes neither data nor status writes nothing.
 *
 * All of it is one SQL statement (atomic by itself): call it inside the caller's transaction when the write belongs
 * to a larger one (an import), or on the database itself. `instance: 'next'` (a read of the numbers taken, retried on
 * a clash) and an omitted `previousSoftIssues` (a read of the open auto queries) add a read before it.
 */
export async function writeRecord(tx: Executor, ctx: AuditContext, input: RecordWrite): Promise<RecordWriteResult> {
  const { form, existing, at, actorId } = input;
  const changes = diffLeaves(form, existing?.data ?? {}, input.data);
  const statusChanged = existing ? existing.status !== input.status : input.status !== 'draft';
  if (existing && changes.length === 0 && !statusChanged && input.force !== true)
    return {
      written: false,
      record: { ...existing, versionId: input.versionId },
      changes,
      queriesOpened: 0,
      queriesClosed: 0,
    };
  if (existing?.status === 'locked' && input.status === 'locked') throw new AppError(409, M.locked);

  const isDerived = (path: string) =>
    input.derivedPaths?.has(path) === true || fieldOfPath(form, path)?.type === 'calc';
  const reason = input.reason?.trim() ? input.reason.trim() : null;
  const sourceRef = input.source.ref ?? null;

  // Auto queries follow the soft issues: one opens when an issue appears, it closes when the issue is gone.
  const now = input.softIssues.filter((i) => i.level === 'soft');
  const before = existing
    ? (input.previousSoftIssues?.filter((i) => i.level === 'soft') ?? (await liveAutoQueries(tx, existing.id)))
    : [];
  const nowKeys = new Set(now.map(issueKey));
  const beforeKeys = new Set(before.map(issueKey));
  const seen = new Set<string>();
  const opened = now.filter((i) => {
    const key = issueKey(i);
    if (beforeKeys.has(key) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const gone = before.filter((i) => !nowKeys.has(issueKey(i)));

  const phi = phiKeys(form);
  const shown = (path: string, value: unknown) =>
    value === null || value === undefined ? null : isPhiPath(phi, path) ? PHI_MARK : value;
  const values = (side: 'before' | 'after') => Object.fromEntries(changes.map((c) => [c.path, shown(c.path, c[side])]));
  const rowVersion = existing ? existing.rowVersion + 1 : 1;
  const transition = statusColumns(existing?.status ?? null, input.status, actorId, at);
  const common = { data: input.data, status: input.status, updatedBy: actorId, updatedAt: at };
  const taskId = input.followupTaskId;

  const attempt = async (instance: number) => {
    const id = existing?.id ?? randomUUID();
    // the project named in the values: the project's 操作日志 (audit scope by `projectId`) lists the record's events
    const head = { projectId: input.projectId, patientId: input.patientId, formKey: form.key, instance };
    const event = auditRow(
      ctx,
      {
        action: input.action ?? defaultAction(existing, input.status),
        entityType: 'form_record',
        entityId: id,
        oldValue: existing
          ? {
              ...head,
              status: existing.status,
              rowVersion: existing.rowVersion,
              ...(existing.versionId ? { versionId: existing.versionId } : {}),
              values: values('before'),
            }
          : null,
        newValue: {
          ...head,
          status: input.status,
          rowVersion,
          versionId: input.versionId,
          values: values('after'),
          source: input.source.type,
          ...(sourceRef ? { sourceRef } : {}),
          ...(opened.length > 0 ? { queriesOpened: opened.length } : {}),
        },
        reason,
      },
      at,
    );
    return applyRecordWrite(tx, {
      record: existing
        ? {
            kind: 'update',
            tenantId: input.tenantId,
            id,
            rowVersion: existing.rowVersion,
            set: {
              ...common,
              ...transition,
              versionId: input.versionId,
            },
            ...(taskId ? { taskIdIfNone: taskId } : {}),
          }
        : {
            kind: 'insert',
            values: {
              id,
              tenantId: input.tenantId,
              projectId: input.projectId,
              patientId: input.patientId,
              formKey: form.key,
              instance,
              versionId: input.versionId,
              createdBy: actorId,
              createdAt: at,
              ...(taskId ? { followupTaskId: taskId } : {}),
              ...common,
              ...transition,
            },
          },
      common: {
        tenantId: input.tenantId,
        projectId: input.projectId,
        patientId: input.patientId,
        actorId,
        at,
        reason,
      },
      versions: changes.map((c) => {
        const derived = isDerived(c.path);
        return {
          path: c.path,
          value: c.after ?? null,
          sourceType: derived ? 'calc' : input.source.type,
          sourceRef: derived ? null : sourceRef,
        };
      }),
      openQueries: opened.map((i) => ({ path: i.path, message: i.message })),
      closeQueries: { pairs: gone.map((i) => ({ path: i.path, message: i.message })), closeNote: M.autoQueryClosed },
      audit: event,
    });
  };

  let done: Awaited<ReturnType<typeof attempt>>;
  if (existing) done = await attempt(existing.instance);
  else if (input.instance === 'next') {
    // a concurrent add of the same form takes the number first: try the one after it
    const key = { tenantId: input.tenantId, patientId: input.patientId, formKey: form.key };
    for (let i = 0; i < 5 && !done; i++) done = await attempt(await nextInstance(tx, key));
  } else done = await attempt(input.instance ?? 1);
  if (!done) throw new AppError(409, M.stale);
  return {
    written: true,
    record: done.row,
    changes,
    queriesOpened: opened.length,
    queriesClosed: done.queriesClosed,
  };
}
