import { and, count, desc, eq, inArray, isNull, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client';
import { PERMISSIONS } from '@registry/shared/permissions';
import {
  centers,
  dataQueries,
  formRecords,
  patients,
  projectMembers,
  projects,
  recordValueVersions,
  roles,
  users,
} from '../../db/schema';
import { patientScope } from '../../domain/scope/patient-scope.repository';
import type { ProjectScope } from '../../domain/scope/project-scope';
import { pageTotal } from '../../lib/page-total';

/** A timestamp of a raw query: text from Drizzle's driver (a Date from a plain pg row). */
const date = (s: string | Date | null): Date | null => (s === null ? null : new Date(s));

export type QueryRow = {
  id: string;
  recordId: string;
  formKey: string;
  instance: number;
  path: string;
  origin: 'auto' | 'manual';
  message: string;
  status: 'open' | 'answered' | 'closed';
  raisedByName: string | null;
  raisedAt: Date;
  answer: string | null;
  answeredByName: string | null;
  answeredAt: Date | null;
  closedByName: string | null;
  closedAt: Date | null;
  closeNote: string | null;
};

export type JsonQuery = {
  id: string;
  record_id: string;
  form_key: string;
  instance: number;
  path: string;
  origin: 'auto' | 'manual';
  message: string;
  status: 'open' | 'answered' | 'closed';
  raised_by_name: string | null;
  /** A string inside JSON, a Date from a plain row. */
  raised_at: string | Date;
  answer: string | null;
  answered_by_name: string | null;
  answered_at: string | Date | null;
  closed_by_name: string | null;
  closed_at: string | Date | null;
  close_note: string | null;
};

export const fromJsonQuery = (q: JsonQuery): QueryRow => ({
  id: q.id,
  recordId: q.record_id,
  formKey: q.form_key,
  instance: q.instance,
  path: q.path,
  origin: q.origin,
  message: q.message,
  status: q.status,
  raisedByName: q.raised_by_name,
  raisedAt: new Date(q.raised_at),
  answer: q.answer,
  answeredByName: q.answered_by_name,
  answeredAt: date(q.answered_at),
  closedByName: q.closed_by_name,
  closedAt: date(q.closed_at),
  closeNote: q.close_note,
});

export const querySelect = (where: SQL) => sql`
  select q.id, q.record_id, r.form_key, r.instance, q.path, q.origin, q.message, q.status,
    ru.name as raised_by_name, q.raised_at, q.answer, au.name as answered_by_name, q.answered_at,
    cu.name as closed_by_name, q.closed_at, q.close_note
  from ${dataQueries} q
  join ${formRecords} r on r.id = q.record_id
  left join ${users} ru on ru.id = q.raised_by
  left join ${users} au on au.id = q.answered_by
  left join ${users} cu on cu.id = q.closed_by
  where ${where}`;

/** Queries of a record (one path, or all), newest first; or one query by id. */
export async function listQueries(
  db: Executor,
  filter: { recordId: string; path?: string } | { id: string },
): Promise<QueryRow[]> {
  const where =
    'id' in filter
      ? sql`q.id = ${filter.id}`
      : filter.path !== undefined
        ? sql`q.record_id = ${filter.recordId} and q.path = ${filter.path}`
        : sql`q.record_id = ${filter.recordId}`;
  const result = await db.execute<JsonQuery>(sql`${querySelect(where)} order by q.raised_at desc, q.id`);
  return result.rows.map(fromJsonQuery);
}

/** Open (not closed) queries per record of a patient. */
export async function openQueryCounts(db: Executor, recordIds: readonly string[]): Promise<Map<string, number>> {
  if (recordIds.length === 0) return new Map();
  const rows = await db
    .select({ recordId: dataQueries.recordId, n: sql<number>`count(*)::int` })
    .from(dataQueries)
    .where(and(inArray(dataQueries.recordId, [...recordIds]), ne(dataQueries.status, 'closed')))
    .groupBy(dataQueries.recordId);
  return new Map(rows.map((r) => [r.recordId, r.n]));
}

/** The auto queries of a record not closed yet: (path, message). */
export async function liveAutoQueries(tx: Executor, recordId: string): Promise<{ path: string; message: string }[]> {
  return tx
    .select({ path: dataQueries.path, message: dataQueries.message })
    .from(dataQueries)
    .where(and(eq(dataQueries.recordId, recordId), eq(dataQueries.origin, 'auto'), ne(dataQueries.status, 'closed')));
}

/** Closes every live query of the given records (a removed instance). */
export async function closeQueriesOfRecords(
  tx: Executor,
  recordIds: readonly string[],
  set: { closedBy: string | null; closedAt: Date; closeNote: string },
): Promise<number> {
  if (recordIds.length === 0) return 0;
  const rows = await tx
    .update(dataQueries)
    .set({ ...set, status: 'closed' })
    .where(and(inArray(dataQueries.recordId, [...recordIds]), ne(dataQueries.status, 'closed')))
    .returning({ id: dataQueries.id });
  return rows.length;
}

/** A query of a live record of a visible patient (undefined otherwise). */
export async function findQuery(
  db: Executor,
  scope: ProjectScope,
  id: string,
): Promise<{ id: string; recordId: string; status: 'open' | 'answered' | 'closed'; frozen: boolean } | undefined> {
  const [row] = await db
    .select({
      id: dataQueries.id,
      recordId: dataQueries.recordId,
      status: dataQueries.status,
      frozen: sql<boolean>`exists (select 1 from ${projects} pr where pr.id in (${patients.projectId}, ${patients.subProjectId}) and pr.status in ('locked', 'archived'))`,
    })
    .from(dataQueries)
    .innerJoin(formRecords, eq(formRecords.id, dataQueries.recordId))
    .innerJoin(patients, and(eq(patients.id, formRecords.patientId), eq(patients.tenantId, formRecords.tenantId)))
    .where(and(patientScope(scope), eq(dataQueries.id, id), isNull(formRecords.deletedAt)))
    .limit(1);
  return row;
}

export async function insertQuery(tx: Executor, values: typeof dataQueries.$inferInsert): Promise<string> {
  const [row] = await tx.insert(dataQueries).values(values).returning({ id: dataQueries.id });
  if (!row) throw new Error('query insert returned no row');
  return row.id;
}

/** Updates a query while it is in one of `from`; undefined when it is not (any more). */
export async function updateQuery(
  tx: Executor,
  id: string,
  from: readonly ('open' | 'answered' | 'closed')[],
  set: Partial<typeof dataQueries.$inferInsert>,
): Promise<{ id: string } | undefined> {
  const [row] = await tx
    .update(dataQueries)
    .set(set)
    .where(and(eq(dataQueries.id, id), inArray(dataQueries.status, [...from])))
    .returning({ id: dataQueries.id });
  return row;
}

// ---------------------------------------------------------------------------------------------------------------
// Query notifications and the open-queries list

/**
 * Whose data a query is about: the last user who wrote the data point (its latest value version with an actor), else
 * the record's author. Null when neither is known (e.g. a value only the system wrote).
 */
export async function dataPointOwner(tx: Executor, recordId: string, path: string): Promise<string | null> {
  const result = await tx.execute<{ user_id: string | null }>(sql`
    select coalesce(
      (select v.actor_id from ${recordValueVersions} v
        where v.record_id = ${recordId} and v.path = ${path} and v.actor_id is not null
        order by v.id desc limit 1),
      (select r.created_by from ${formRecords} r where r.id = ${recordId})) as user_id`);
  return result.rows[0]?.user_id ?? null;
}

/** What a query's notifications name: its parties, the record and the patient (number and center, never the name). */
export type QueryParties = {
  id: string;
  tenantId: string;
  projectId: string;
  recordId: string;
  path: string;
  message: string;
  answer: string | null;
  raisedBy: string | null;
  answeredBy: string | null;
  assignedTo: string | null;
  formKey: string;
  instance: number;
  versionId: string;
  patientId: string;
  patientNo: string;
  patientCenterId: string | null;
  rootProjectId: string;
};

export async function findQueryParties(tx: Executor, id: string): Promise<QueryParties | undefined> {
  const [row] = await tx
    .select({
      id: dataQueries.id,
      tenantId: dataQueries.tenantId,
      projectId: dataQueries.projectId,
      recordId: dataQueries.recordId,
      path: dataQueries.path,
      message: dataQueries.message,
      answer: dataQueries.answer,
      raisedBy: dataQueries.raisedBy,
      answeredBy: dataQueries.answeredBy,
      assignedTo: dataQueries.assignedTo,
      formKey: formRecords.formKey,
      instance: formRecords.instance,
      versionId: formRecords.versionId,
      patientId: patients.id,
      patientNo: patients.patientNo,
      patientCenterId: patients.centerId,
      rootProjectId: patients.projectId,
    })
    .from(dataQueries)
    .innerJoin(formRecords, eq(formRecords.id, dataQueries.recordId))
    .innerJoin(patients, and(eq(patients.id, formRecords.patientId), eq(patients.tenantId, formRecords.tenantId)))
    .where(eq(dataQueries.id, id))
    .limit(1);
  return row;
}

/**
 * Of these users, those who may still see the patient: an enabled account, a member of the (top-level) project whose
 * role holds `patient.list`, for all centers or the patient's. A notification never goes to anyone else.
 */
export async function usersSeeingPatient(
  tx: Executor,
  userIds: readonly string[],
  at: { rootProjectId: string; centerId: string | null },
): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await tx
    .select({ userId: projectMembers.userId })
    .from(projectMembers)
    .innerJoin(roles, eq(roles.id, projectMembers.roleId))
    .innerJoin(users, eq(users.id, projectMembers.userId))
    .where(
      and(
        eq(projectMembers.projectId, at.rootProjectId),
        inArray(projectMembers.userId, [...userIds]),
        eq(users.disabled, false),
        sql`${PERMISSIONS.patientList} = any(${roles.permissions})`,
        at.centerId === null
          ? isNull(projectMembers.centerId)
          : or(isNull(projectMembers.centerId), eq(projectMembers.centerId, at.centerId)),
      ),
    );
  return new Set(rows.map((r) => r.userId));
}

export async function userName(db: Executor, id: string): Promise<string | null> {
  const [row] = await db.select({ name: users.name }).from(users).where(eq(users.id, id)).limit(1);
  return row?.name ?? null;
}

export type QueryPageFilter = {
  status?: 'open' | 'answered' | 'closed';
  centerId?: string;
  formKey?: string;
  mine?: 'raised' | 'assigned';
  /** Raised at or before this instant (the "open at least N days" filter). */
  raisedBefore?: Date;
  current: number;
  size: number;
};

export type QueryListRow = {
  id: string;
  recordId: string;
  patientId: string;
  patientNo: string;
  patientName: string | null;
  centerId: string | null;
  centerName: string | null;
  formKey: string;
  instance: number;
  versionId: string;
  path: string;
  origin: 'auto' | 'manual';
  message: string;
  status: 'open' | 'answered' | 'closed';
  raisedByName: string | null;
  raisedAt: Date;
  assignedToName: string | null;
  answer: string | null;
  answeredByName: string | null;
  answeredAt: Date | null;
  closedAt: Date | null;
};

/**
 * The queries of the caller's visible patients (THE patient scope: tenant, project, sub-project cohort, center rule),
 * of live records, newest first; `status` absent = not closed.
 */
export async function pageQueries(
  db: Executor,
  scope: ProjectScope,
  f: QueryPageFilter,
): Promise<{ total: number; records: QueryListRow[] }> {
  const raisedBy = alias(users, 'query_raised_by');
  const assignedTo = alias(users, 'query_assigned_to');
  const answeredBy = alias(users, 'query_answered_by');
  const where = and(
    eq(dataQueries.tenantId, scope.tenantId),
    patientScope(scope),
    isNull(formRecords.deletedAt),
    f.status ? eq(dataQueries.status, f.status) : ne(dataQueries.status, 'closed'),
    f.centerId ? eq(patients.centerId, f.centerId) : undefined,
    f.formKey ? eq(formRecords.formKey, f.formKey) : undefined,
    f.mine === 'raised' ? eq(dataQueries.raisedBy, scope.userId) : undefined,
    f.mine === 'assigned' ? eq(dataQueries.assignedTo, scope.userId) : undefined,
    f.raisedBefore ? lte(dataQueries.raisedAt, f.raisedBefore) : undefined,
  );
  const from = () =>
    db
      .select({
        id: dataQueries.id,
        recordId: dataQueries.recordId,
        patientId: patients.id,
        patientNo: patients.patientNo,
        patientName: patients.name,
        centerId: patients.centerId,
        centerName: centers.name,
        formKey: formRecords.formKey,
        instance: formRecords.instance,
        versionId: formRecords.versionId,
        path: dataQueries.path,
        origin: dataQueries.origin,
        message: dataQueries.message,
        status: dataQueries.status,
        raisedByName: raisedBy.name,
        raisedAt: dataQueries.raisedAt,
        assignedToName: assignedTo.name,
        answer: dataQueries.answer,
        answeredByName: answeredBy.name,
        answeredAt: dataQueries.answeredAt,
        closedAt: dataQueries.closedAt,
      })
      .from(dataQueries)
      .innerJoin(formRecords, eq(formRecords.id, dataQueries.recordId))
      .innerJoin(patients, and(eq(patients.id, formRecords.patientId), eq(patients.tenantId, formRecords.tenantId)))
      .leftJoin(centers, eq(centers.id, patients.centerId))
      .leftJoin(raisedBy, eq(raisedBy.id, dataQueries.raisedBy))
      .leftJoin(assignedTo, eq(assignedTo.id, dataQueries.assignedTo))
      .leftJoin(answeredBy, eq(answeredBy.id, dataQueries.answeredBy));
  const records = await from()
    .where(where)
    .orderBy(desc(dataQueries.raisedAt), desc(dataQueries.id))
    .limit(f.size)
    .offset((f.current - 1) * f.size);
  const total = await pageTotal({ offset: (f.current - 1) * f.size, size: f.size, rows: records.length }, async () => {
    const [c] = await db
      .select({ n: count() })
      .from(dataQueries)
      .innerJoin(formRecords, eq(formRecords.id, dataQueries.recordId))
      .innerJoin(patients, and(eq(patients.id, formRecords.patientId), eq(patients.tenantId, formRecords.tenantId)))
      .where(where);
    return c?.n ?? 0;
  });
  return { total, records };
}
