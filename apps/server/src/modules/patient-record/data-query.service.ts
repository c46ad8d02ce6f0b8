import type { z } from 'zod';
import type {
  DataQueryVO,
  queryAnswerRequest,
  queryCloseRequest,
  queryCreateRequest,
  queryPageRequest,
  QueryPageResponse,
} from '@registry/shared/contracts/form-record';
import type { NotificationKind } from '@registry/shared/contracts/notification';
import type { Db, Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { audit, type AuditContext } from '../../plugins/audit';
import type { AuthContext } from '../auth/session.service';
import { isUuid, requireProjectScope, type ProjectScope } from '../../domain/scope/project-scope';
import type { DefinitionCache } from '../../domain/crf/definition-cache';
import type { NotificationMessage, Notifier } from '../notification/notifier';
import { RECORD_MESSAGES as M } from './patient-record.messages';
import { presentQuery, presentQueryListItem } from './patient-record.presenter';
import {
  dataPointOwner,
  findQuery,
  findQueryParties,
  insertQuery,
  listQueries,
  pageQueries,
  updateQuery,
  userName,
  usersSeeingPatient,
} from './data-query.repository';
import { createRecordContext } from './record-context';
import { fieldOfPath, pathLabelOf } from './record-data';

type QueryCreateInput = z.output<typeof queryCreateRequest>;
type QueryAnswerInput = z.output<typeof queryAnswerRequest>;
type QueryCloseInput = z.output<typeof queryCloseRequest>;
type QueryPageInput = z.output<typeof queryPageRequest>;

const DAY_MS = 24 * 60 * 60 * 1000;
/** The query text quoted in a notification is cut here (the record shows it whole). */
const QUOTE_MAX = 100;
const quote = (text: string) => (text.length > QUOTE_MAX ? `${text.slice(0, QUOTE_MAX)}…` : text);

export type DataQueryService = ReturnType<typeof createDataQueryService>;

/** Queries on data points: raise, answer, close (each notifies the other party), and the open-queries list. */
export function createDataQueryService(deps: {
  db: Db;
  clock: Clock;
  definitions?: DefinitionCache;
  /** Tells the people of a query inside the query's transaction; none = nobody is told. */
  notifier?: Notifier;
}) {
  const { db, clock } = deps;
  const { cache, hasPii, visibleRecord, formOfRecord } = createRecordContext(deps);

  return {
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
