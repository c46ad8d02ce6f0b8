import { and, asc, desc, eq, gt, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { RecordStatus } from '@registry/shared/contracts/form-record';
import type { Executor } from '../../db/client';
import {
  dataQueries,
  formRecords,
  formVersions,
  patients,
  projects,
  recordValueVersions,
  sdvMarks,
  users,
} from '../../db/schema';
import { patientScope } from '../patient/patient.repository';
import type { ProjectScope } from '../project/project-scope';

/** A stored record as the writer and the service work with it. */
export type RecordRow = {
  id: string;
  patientId: string;
  formKey: string;
  instance: number;
  versionId: string;
  status: RecordStatus;
  rowVersion: number;
  data: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
  submittedAt: Date | null;
  verifiedAt: Date | null;
  lockedAt: Date | null;
};

export const recordColumns = {
  id: formRecords.id,
  patientId: formRecords.patientId,
  formKey: formRecords.formKey,
  instance: formRecords.instance,
  versionId: formRecords.versionId,
  status: formRecords.status,
  rowVersion: formRecords.rowVersion,
  data: formRecords.data,
  createdAt: formRecords.createdAt,
  updatedAt: formRecords.updatedAt,
  submittedAt: formRecords.submittedAt,
  verifiedAt: formRecords.verifiedAt,
  lockedAt: formRecords.lockedAt,
};

type RawRecord = Omit<RecordRow, 'data'> & { data: unknown };
// `data` is always a JSON object: only the writer stores it, from the engine's normalised output.
export const asRecordRow = (row: RawRecord): RecordRow => ({ ...row, data: row.data as Record<string, unknown> });

/** Inserts a record; undefined when the (patient, form, instance) exists already (a concurrent create won). */
export async function insertRecordRow(
  tx: Executor,
  values: typeof formRecords.$inferInsert,
): Promise<RecordRow | undefined> {
  const [row] = await tx.insert(formRecords).values(values).onConflictDoNothing().returning(recordColumns);
  return row ? asRecordRow(row) : undefined;
}

/** The next instance number of a repeating form of a patient (removed instances count: numbers are never reused). */
export async function nextInstance(
  tx: Executor,
  key: { tenantId: string; patientId: string; formKey: string },
): Promise<number> {
  const [row] = await tx
    .select({ max: sql<number>`coalesce(max(${formRecords.instance}), 0)::int` })
    .from(formRecords)
    .where(
      and(
        eq(formRecords.tenantId, key.tenantId),
        eq(formRecords.patientId, key.patientId),
        eq(formRecords.formKey, key.formKey),
      ),
    );
  return (row?.max ?? 0) + 1;
}

/** `UPDATE … WHERE row_version = expected` of a live record: undefined when it changed meanwhile (or is gone). */
export async function updateRecordRow(
  tx: Executor,
  key: { tenantId: string; id: string; rowVersion: number },
  set: Partial<typeof formRecords.$inferInsert>,
): Promise<RecordRow | undefined> {
  const [row] = await tx
    .update(formRecords)
    .set({ ...set, rowVersion: sql`${formRecords.rowVersion} + 1` })
    .where(
      and(
        eq(formRecords.tenantId, key.tenantId),
        eq(formRecords.id, key.id),
        eq(formRecords.rowVersion, key.rowVersion),
        isNull(formRecords.deletedAt),
      ),
    )
    .returning(recordColumns);
  return row ? asRecordRow(row) : undefined;
}

export async function insertValueVersions(
  tx: Executor,
  rows: (typeof recordValueVersions.$inferInsert)[],
): Promise<void> {
  if (rows.length > 0) await tx.insert(recordValueVersions).values(rows);
}

/** The auto queries of a record not closed yet: (path, message). */
export async function liveAutoQueries(tx: Executor, recordId: string): Promise<{ path: string; message: string }[]> {
  return tx
    .select({ path: dataQueries.path, message: dataQueries.message })
    .from(dataQueries)
    .where(and(eq(dataQueries.recordId, recordId), eq(dataQueries.origin, 'auto'), ne(dataQueries.status, 'closed')));
}

export async function insertQueries(tx: Executor, rows: (typeof dataQueries.$inferInsert)[]): Promise<void> {
  if (rows.length > 0) await tx.insert(dataQueries).values(rows);
}

/** Closes the record's live auto queries of these (path, message) pairs; answers how many it closed. */
export async function closeAutoQueries(
  tx: Executor,
  recordId: string,
  pairs: readonly { path: string; message: string }[],
  set: { closedBy: string | null; closedAt: Date; closeNote: string },
): Promise<number> {
  if (pairs.length === 0) return 0;
  const which = or(...pairs.map((p) => and(eq(dataQueries.path, p.path), eq(dataQueries.message, p.message))));
  const conditions: (SQL | undefined)[] = [
    eq(dataQueries.recordId, recordId),
    eq(dataQueries.origin, 'auto'),
    ne(dataQueries.status, 'closed'),
    which,
  ];
  const rows = await tx
    .update(dataQueries)
    .set({ ...set, status: 'closed' })
    .where(and(...conditions))
    .returning({ id: dataQueries.id });
  return rows.length;
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

// ---------------------------------------------------------------------------------------------------------------
// Reads

const updater = alias(users, 'updater');

/** The patient a record call works on, the statuses that freeze it, the versions a new record takes, its records. */
export type PatientContext = {
  patient: { id: string; tenantId: string; projectId: string; subProjectId: string | null };
  /** The patient's project or sub-project is locked or archived: its records refuse every change. */
  frozen: boolean;
  /** The latest published version of the patient's sub-project (first, when it has one) and of its project. */
  latestVersionIds: string[];
  records: ContextRecord[];
};

export type ContextRecord = RecordRow & { updatedByName: string | null; openQueries: number };

/**
 * One query: the patient within the caller's scope (tenant, project, sub-project cohort, center rule, not deleted)
 * and its live records — all of them, or the one of (form, instance) plus every first instance (the cross-form
 * values). Undefined when the patient is not visible.
 */
export async function loadPatientContext(
  db: Executor,
  scope: ProjectScope,
  patientId: string,
  which: 'all' | { formKey: string; instance: number | null },
): Promise<PatientContext | undefined> {
  const recordFilter =
    which === 'all'
      ? undefined
      : which.instance === null
        ? eq(formRecords.instance, 1)
        : or(
            eq(formRecords.instance, 1),
            and(eq(formRecords.formKey, which.formKey), eq(formRecords.instance, which.instance)),
          );
  const rows = await db
    .select({
      id: patients.id,
      tenantId: patients.tenantId,
      projectId: patients.projectId,
      subProjectId: patients.subProjectId,
      frozen: sql<boolean>`exists (select 1 from ${projects} pr where pr.id in (${patients.projectId}, ${patients.subProjectId}) and pr.status in ('locked', 'archived'))`,
      latest: sql<string[]>`array(select x.id::text from (
        select distinct on (fv.project_id) fv.id, fv.project_id from ${formVersions} fv
        where fv.tenant_id = ${patients.tenantId} and fv.project_id in (${patients.projectId}, ${patients.subProjectId})
        order by fv.project_id, fv.version_no desc) x
        order by (x.project_id = ${patients.projectId}) asc)`,
      record: recordColumns,
      updatedByName: updater.name,
      openQueries: sql<number>`(select count(*)::int from ${dataQueries} q where q.record_id = ${formRecords.id} and q.status <> 'closed')`,
    })
    .from(patients)
    .leftJoin(
      formRecords,
      and(
        eq(formRecords.tenantId, patients.tenantId),
        eq(formRecords.patientId, patients.id),
        isNull(formRecords.deletedAt),
        recordFilter,
      ),
    )
    .leftJoin(updater, eq(updater.id, formRecords.updatedBy))
    .where(and(patientScope(scope), eq(patients.id, patientId)))
    .orderBy(asc(formRecords.formKey), asc(formRecords.instance));
  const first = rows[0];
  if (!first) return undefined;
  return {
    patient: {
      id: first.id,
      tenantId: first.tenantId,
      projectId: first.projectId,
      subProjectId: first.subProjectId,
    },
    frozen: first.frozen,
    latestVersionIds: first.latest,
    records: rows.flatMap((r) =>
      r.record?.id ? [{ ...asRecordRow(r.record), updatedByName: r.updatedByName, openQueries: r.openQueries }] : [],
    ),
  };
}

export type ScopedRecord = RecordRow & {
  tenantId: string;
  /** The record's project (the patient's sub-project cohort, or its project). */
  projectId: string;
  patientProjectId: string;
  subProjectId: string | null;
  /** The patient's project or sub-project is locked or archived. */
  frozen: boolean;
};

/** A live record of a visible patient, by id, with the patient's context (undefined when either is not visible). */
export async function findRecord(
  db: Executor,
  scope: ProjectScope,
  recordId: string,
): Promise<ScopedRecord | undefined> {
  const [row] = await db
    .select({
      ...recordColumns,
      tenantId: formRecords.tenantId,
      projectId: formRecords.projectId,
      patientProjectId: patients.projectId,
      subProjectId: patients.subProjectId,
      frozen: sql<boolean>`exists (select 1 from ${projects} pr where pr.id in (${patients.projectId}, ${patients.subProjectId}) and pr.status in ('locked', 'archived'))`,
    })
    .from(formRecords)
    .innerJoin(patients, and(eq(patients.id, formRecords.patientId), eq(patients.tenantId, formRecords.tenantId)))
    .where(and(patientScope(scope), eq(formRecords.id, recordId), isNull(formRecords.deletedAt)))
    .limit(1);
  return row ? { ...row, data: row.data as Record<string, unknown> } : undefined;
}

type JsonPoint = {
  path: string;
  versions: number;
  last_at: string;
  last_by_name: string | null;
  last_source: string;
  sdv: 'verified' | 'stale' | null;
  open_queries: number;
};

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

type JsonQuery = {
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

const date = (s: string | Date | null): Date | null => (s === null ? null : new Date(s));

const fromJsonQuery = (q: JsonQuery): QueryRow => ({
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

const querySelect = (where: SQL) => sql`
  select q.id, q.record_id, r.form_key, r.instance, q.path, q.origin, q.message, q.status,
    ru.name as raised_by_name, q.raised_at, q.answer, au.name as answered_by_name, q.answered_at,
    cu.name as closed_by_name, q.closed_at, q.close_note
  from ${dataQueries} q
  join ${formRecords} r on r.id = q.record_id
  left join ${users} ru on ru.id = q.raised_by
  left join ${users} au on au.id = q.answered_by
  left join ${users} cu on cu.id = q.closed_by
  where ${where}`;

export type RecordExtras = {
  names: { updated: string | null; submitted: string | null; verified: string | null; locked: string | null };
  points: {
    path: string;
    versions: number;
    lastAt: Date;
    lastByName: string | null;
    lastSource: string;
    sdv: 'verified' | 'stale' | null;
    openQueries: number;
  }[];
  queries: QueryRow[];
};

/**
 * In one query: the names of who last changed, submitted, verified and locked the record, the state of each data
 * point (versions, last change, SDV mark of the latest version or of an earlier one, queries not closed) and the
 * record's queries (newest first).
 */
export async function loadRecordExtras(db: Executor, recordId: string): Promise<RecordExtras> {
  const result = await db.execute<{
    names: RecordExtras['names'] | null;
    points: JsonPoint[];
    queries: JsonQuery[];
  }>(sql`
    with agg as (
      select v.path, count(*)::int as versions, max(v.id) as last_id, bool_or(m.id is not null) as any_sdv
      from ${recordValueVersions} v left join ${sdvMarks} m on m.value_version_id = v.id
      where v.record_id = ${recordId}
      group by v.path
    ), pts as (
      select a.path, a.versions, l.at as last_at, u.name as last_by_name, l.source_type as last_source,
        case when exists (select 1 from ${sdvMarks} s where s.value_version_id = a.last_id) then 'verified'
             when a.any_sdv then 'stale' end as sdv,
        (select count(*)::int from ${dataQueries} q
          where q.record_id = ${recordId} and q.path = a.path and q.status <> 'closed') as open_queries
      from agg a join ${recordValueVersions} l on l.id = a.last_id left join ${users} u on u.id = l.actor_id
    ), qs as (${querySelect(sql`q.record_id = ${recordId}`)})
    select
      (select json_build_object('updated', uu.name, 'submitted', su.name, 'verified', vu.name, 'locked', lu.name)
        from ${formRecords} r
        left join ${users} uu on uu.id = r.updated_by
        left join ${users} su on su.id = r.submitted_by
        left join ${users} vu on vu.id = r.verified_by
        left join ${users} lu on lu.id = r.locked_by
        where r.id = ${recordId}) as names,
      (select coalesce(json_agg(pts order by pts.path), '[]'::json) from pts) as points,
      (select coalesce(json_agg(qs order by qs.raised_at desc, qs.id), '[]'::json) from qs) as queries`);
  const row = result.rows[0];
  return {
    names: row?.names ?? { updated: null, submitted: null, verified: null, locked: null },
    points: (row?.points ?? []).map((p) => ({
      path: p.path,
      versions: p.versions,
      lastAt: new Date(p.last_at),
      lastByName: p.last_by_name,
      lastSource: p.last_source,
      sdv: p.sdv,
      openQueries: p.open_queries,
    })),
    queries: (row?.queries ?? []).map(fromJsonQuery),
  };
}

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

export type VersionRowOut = {
  id: number;
  path: string;
  value: unknown;
  reason: string | null;
  sourceType: string;
  sourceRef: unknown;
  recordRowVersion: number;
  actorName: string | null;
  at: Date;
  sdvByName: string | null;
  sdvAt: Date | null;
};

const verifier = alias(users, 'verifier');
const actor = alias(users, 'actor');

/** Versions of a record's data points (one path, or all), newest first, with actor and SDV mark. */
export async function listValueVersions(
  db: Executor,
  filter: { recordId: string; path?: string; sinceRowVersion?: number },
): Promise<VersionRowOut[]> {
  const rows = await db
    .select({
      id: recordValueVersions.id,
      path: recordValueVersions.path,
      // as text: Drizzle would parse a JSON string value a second time ('"1"' → 1)
      value: sql<string | null>`${recordValueVersions.value}::text`,
      reason: recordValueVersions.reason,
      sourceType: recordValueVersions.sourceType,
      sourceRef: recordValueVersions.sourceRef,
      recordRowVersion: recordValueVersions.recordRowVersion,
      actorName: actor.name,
      at: recordValueVersions.at,
      sdvByName: verifier.name,
      sdvAt: sdvMarks.verifiedAt,
    })
    .from(recordValueVersions)
    .leftJoin(actor, eq(actor.id, recordValueVersions.actorId))
    .leftJoin(sdvMarks, eq(sdvMarks.valueVersionId, recordValueVersions.id))
    .leftJoin(verifier, eq(verifier.id, sdvMarks.verifiedBy))
    .where(
      and(
        eq(recordValueVersions.recordId, filter.recordId),
        filter.path !== undefined ? eq(recordValueVersions.path, filter.path) : undefined,
        filter.sinceRowVersion !== undefined
          ? gt(recordValueVersions.recordRowVersion, filter.sinceRowVersion)
          : undefined,
      ),
    )
    .orderBy(desc(recordValueVersions.id));
  return rows.map((r) => ({ ...r, value: r.value === null ? null : (JSON.parse(r.value) as unknown) }));
}

/** The latest version id of each of these paths of a record, and whether it carries an SDV mark already. */
export async function latestVersionsOf(
  db: Executor,
  recordId: string,
  paths: readonly string[],
): Promise<{ path: string; id: number; verified: boolean }[]> {
  if (paths.length === 0) return [];
  return db
    .selectDistinctOn([recordValueVersions.path], {
      path: recordValueVersions.path,
      id: recordValueVersions.id,
      verified: sql<boolean>`exists (select 1 from ${sdvMarks} m where m.value_version_id = ${recordValueVersions.id})`,
    })
    .from(recordValueVersions)
    .where(and(eq(recordValueVersions.recordId, recordId), inArray(recordValueVersions.path, [...paths])))
    .orderBy(recordValueVersions.path, desc(recordValueVersions.id));
}

export async function insertSdvMarks(tx: Executor, rows: (typeof sdvMarks.$inferInsert)[]): Promise<number> {
  if (rows.length === 0) return 0;
  const inserted = await tx.insert(sdvMarks).values(rows).onConflictDoNothing().returning({ id: sdvMarks.id });
  return inserted.length;
}

/** Soft-deletes a live record that is not locked; undefined when it is gone or locked meanwhile. */
export async function softDeleteRecord(
  tx: Executor,
  key: { tenantId: string; id: string },
  set: { deletedAt: Date; deleteReason: string; updatedBy: string; updatedAt: Date },
): Promise<{ id: string; rowVersion: number } | undefined> {
  const [row] = await tx
    .update(formRecords)
    .set({ ...set, rowVersion: sql`${formRecords.rowVersion} + 1` })
    .where(
      and(
        eq(formRecords.tenantId, key.tenantId),
        eq(formRecords.id, key.id),
        isNull(formRecords.deletedAt),
        ne(formRecords.status, 'locked'),
      ),
    )
    .returning({ id: formRecords.id, rowVersion: formRecords.rowVersion });
  return row;
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
