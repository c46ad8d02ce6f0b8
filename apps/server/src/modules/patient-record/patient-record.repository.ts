import { and, eq, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { RecordStatus } from '@registry/shared/contracts/form-record';
import { executePrepared, type Executor } from '../../db/client';
import {
  auditEvents,
  dataQueries,
  formRecords,
  formVersions,
  patients,
  projects,
  recordValueVersions,
  sdvMarks,
  users,
} from '../../db/schema';
import { patientScope } from '../../domain/scope/patient-scope.repository';
import type { ProjectScope } from '../../domain/scope/project-scope';
import { fromJsonQuery, querySelect, type JsonQuery, type QueryRow } from './data-query.repository';

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

/** A timestamp of a raw query: text from Drizzle's driver (a Date from a plain pg row). */
const date = (s: string | Date | null): Date | null => (s === null ? null : new Date(s));

/** The raw row of a RETURNING of `form_records` (snake_case; Drizzle's driver leaves timestamps as text). */
type RawRecordRow = {
  id: string;
  patient_id: string;
  form_key: string;
  instance: number;
  version_id: string;
  status: RecordStatus;
  row_version: number;
  data: Record<string, unknown>;
  created_at: string | Date;
  updated_at: string | Date;
  submitted_at: string | Date | null;
  verified_at: string | Date | null;
  locked_at: string | Date | null;
};

const fromRawRecord = (r: RawRecordRow): RecordRow => ({
  id: r.id,
  patientId: r.patient_id,
  formKey: r.form_key,
  instance: r.instance,
  versionId: r.version_id,
  status: r.status,
  rowVersion: r.row_version,
  data: r.data,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
  submittedAt: date(r.submitted_at),
  verifiedAt: date(r.verified_at),
  lockedAt: date(r.locked_at),
});

const RETURNING_RECORD = sql.raw(
  'returning id, patient_id, form_key, instance, version_id, status, row_version, data, created_at, updated_at, submitted_at, verified_at, locked_at',
);

/** One write of a record change, as `applyRecordWrite` runs it. */
/** The columns of a form record as written. */
export type RecordInsert = typeof formRecords.$inferInsert;

export type RecordWriteStatement = {
  record:
    | {
        kind: 'update';
        tenantId: string;
        id: string;
        rowVersion: number;
        set: Partial<RecordInsert>;
        /** The follow-up task the record is saved from: set unless the row already names one (`coalesce`). */
        taskIdIfNone?: string;
      }
    | { kind: 'insert'; values: typeof formRecords.$inferInsert & { id: string } };
  /** Who, when, why of every value version, auto query and closing of this write. */
  common: { tenantId: string; projectId: string; patientId: string; actorId: string; at: Date; reason: string | null };
  versions: {
    path: string;
    value: unknown;
    sourceType: (typeof recordValueVersions.$inferInsert)['sourceType'];
    sourceRef: unknown;
  }[];
  openQueries: { path: string; message: string }[];
  closeQueries: { pairs: { path: string; message: string }[]; closeNote: string };
  /** The audit row; `queriesClosed` is added to its new value when the write closed any query. */
  audit: typeof auditEvents.$inferInsert;
};

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

/**
 * The record row (update guarded by its row version, or insert that yields to an existing instance), its value
 * versions, its auto queries opened and closed and its audit event, in ONE statement: atomic by itself, and every
 * part depends on the record row, so a stale or conflicting write leaves nothing behind. Undefined when the record
 * changed meanwhile (or the instance exists).
 */
export async function applyRecordWrite(
  ex: Executor,
  s: RecordWriteStatement,
): Promise<{ row: RecordRow; queriesClosed: number } | undefined> {
  const c = s.common;
  const recordSql =
    s.record.kind === 'update'
      ? ex
          .update(formRecords)
          .set({
            ...s.record.set,
            ...(s.record.taskIdIfNone
              ? { followupTaskId: sql`coalesce(${formRecords.followupTaskId}, ${s.record.taskIdIfNone}::uuid)` }
              : {}),
            rowVersion: sql`${formRecords.rowVersion} + 1`,
          })
          .where(
            and(
              eq(formRecords.tenantId, s.record.tenantId),
              eq(formRecords.id, s.record.id),
              eq(formRecords.rowVersion, s.record.rowVersion),
              isNull(formRecords.deletedAt),
            ),
          )
          .getSQL()
      : ex.insert(formRecords).values(s.record.values).onConflictDoNothing().getSQL();
  const recordId = s.record.kind === 'update' ? s.record.id : s.record.values.id;
  const parts: SQL[] = [sql`with upd as (${recordSql} ${RETURNING_RECORD})`];
  if (s.versions.length > 0) {
    const rows = sql.join(
      s.versions.map(
        (v) => sql`(${v.path}::text, ${json(v.value)}::jsonb, ${v.sourceType}::text, ${json(v.sourceRef)}::jsonb)`,
      ),
      sql`, `,
    );
    parts.push(sql`, v as (
      insert into ${recordValueVersions} (tenant_id, project_id, patient_id, record_id, path, value, reason, source_type,
        source_ref, record_row_version, actor_id, at)
      select ${c.tenantId}::uuid, ${c.projectId}::uuid, ${c.patientId}::uuid, upd.id, x.path, x.value, ${c.reason}::text,
        x.source_type, x.source_ref, upd.row_version, ${c.actorId}::uuid, ${c.at}::timestamptz
      from upd cross join (values ${rows}) as x(path, value, source_type, source_ref))`);
  }
  if (s.openQueries.length > 0) {
    const rows = sql.join(
      s.openQueries.map((q) => sql`(${q.path}::text, ${q.message}::text)`),
      sql`, `,
    );
    parts.push(sql`, qo as (
      insert into ${dataQueries} (tenant_id, project_id, patient_id, record_id, path, origin, message, status, raised_by,
        raised_at, assigned_to)
      select ${c.tenantId}::uuid, ${c.projectId}::uuid, ${c.patientId}::uuid, upd.id, x.path, 'auto', x.message, 'open',
        ${c.actorId}::uuid, ${c.at}::timestamptz, ${c.actorId}::uuid
      from upd cross join (values ${rows}) as x(path, message))`);
  }
  const closing = s.closeQueries.pairs.length > 0;
  if (closing) {
    const rows = sql.join(
      s.closeQueries.pairs.map((q) => sql`(${q.path}::text, ${q.message}::text)`),
      sql`, `,
    );
    parts.push(sql`, qc as (
      update ${dataQueries} set status = 'closed', closed_by = ${c.actorId}::uuid, closed_at = ${c.at}::timestamptz,
        close_note = ${s.closeQueries.closeNote}::text
      where record_id = ${recordId}::uuid and origin = 'auto' and status <> 'closed' and (path, message) in (values ${rows})
        and exists (select 1 from upd)
      returning id)`);
  }
  const a = s.audit;
  const closedCount = closing ? sql`(select count(*)::int from qc)` : sql`0`;
  const newValue = closing
    ? sql`case when ${closedCount} > 0 then ${json(a.newValue)}::jsonb || jsonb_build_object('queriesClosed', ${closedCount}) else ${json(a.newValue)}::jsonb end`
    : sql`${json(a.newValue)}::jsonb`;
  parts.push(sql`, a as (
    insert into ${auditEvents} (tenant_id, project_id, actor_id, at, action, entity_type, entity_id, old_value,
      new_value, reason, request_id, ip)
    select ${a.tenantId ?? null}::uuid, ${a.projectId ?? null}::uuid, ${a.actorId ?? null}::uuid,
      ${a.at ?? c.at}::timestamptz, ${a.action}::text,
      ${a.entityType}::text, upd.id::text, ${json(a.oldValue)}::jsonb, ${newValue}, ${a.reason ?? null}::text,
      ${a.requestId ?? null}::text, ${a.ip ?? null}::text
    from upd)`);
  parts.push(sql` select upd.*, ${closedCount} as queries_closed from upd`);
  const result = await ex.execute<RawRecordRow & { queries_closed: number }>(sql.join(parts, sql``));
  const row = result.rows[0];
  return row ? { row: fromRawRecord(row), queriesClosed: row.queries_closed } : undefined;
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

// ---------------------------------------------------------------------------------------------------------------
// Reads

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
      ? sql``
      : which.instance === null
        ? sql` and r.instance = 1`
        : sql` and (r.instance = 1 or (r.form_key = ${which.formKey} and r.instance = ${which.instance}))`;
  const result = await executePrepared<
    {
      id: string;
      tenant_id: string;
      project_id: string;
      sub_project_id: string | null;
      frozen: boolean;
      latest: string[];
      r_id: string | null;
      updated_by_name: string | null;
      open_queries: number;
    } & Omit<RawRecordRow, 'id'>
  >(
    db,
    sql`
    with p as (
      select ${patients.id} as id, ${patients.tenantId} as tenant_id, ${patients.projectId} as project_id,
        ${patients.subProjectId} as sub_project_id,
        exists (select 1 from ${projects} pr where pr.id in (${patients.projectId}, ${patients.subProjectId})
          and pr.status in ('locked', 'archived')) as frozen,
        array(select x.id::text from (
          select distinct on (fv.project_id) fv.id, fv.project_id from ${formVersions} fv
          where fv.tenant_id = ${patients.tenantId} and fv.project_id in (${patients.projectId}, ${patients.subProjectId})
          order by fv.project_id, fv.version_no desc) x
          order by (x.project_id = ${patients.projectId}) asc) as latest
      from ${patients}
      where ${patientScope(scope)} and ${patients.id} = ${patientId}
    )
    select p.*, r.id as r_id, r.patient_id, r.form_key, r.instance, r.version_id, r.status, r.row_version, r.data,
      r.created_at, r.updated_at, r.submitted_at, r.verified_at, r.locked_at, u.name as updated_by_name,
      (select count(*)::int from ${dataQueries} q where q.record_id = r.id and q.status <> 'closed') as open_queries
    from p
    left join ${formRecords} r on r.tenant_id = p.tenant_id and r.patient_id = p.id and r.deleted_at is null${recordFilter}
    left join ${users} u on u.id = r.updated_by
    order by r.form_key, r.instance`,
  );
  const first = result.rows[0];
  if (!first) return undefined;
  return {
    patient: {
      id: first.id,
      tenantId: first.tenant_id,
      projectId: first.project_id,
      subProjectId: first.sub_project_id,
    },
    frozen: first.frozen,
    latestVersionIds: first.latest,
    records: result.rows.flatMap((r) =>
      r.r_id
        ? [
            {
              ...fromRawRecord({ ...r, id: r.r_id }),
              updatedByName: r.updated_by_name,
              openQueries: r.open_queries,
            },
          ]
        : [],
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
  // `data` is always a JSON object: only the writer stores it, from the engine's normalised output.
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
  const result = await executePrepared<{
    names: RecordExtras['names'] | null;
    points: JsonPoint[];
    queries: JsonQuery[];
  }>(
    db,
    sql`
    with agg as (
      select v.path, count(*)::int as versions, max(v.id) as last_id
      from ${recordValueVersions} v
      where v.record_id = ${recordId}
      group by v.path
    ), pts as (
      select a.path, a.versions, l.at as last_at, u.name as last_by_name, l.source_type as last_source,
        case when exists (select 1 from ${sdvMarks} s where s.value_version_id = a.last_id) then 'verified'
             when exists (select 1 from ${sdvMarks} s where s.record_id = ${recordId} and s.path = a.path)
               then 'stale' end as sdv,
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
      (select coalesce(json_agg(qs order by qs.raised_at desc, qs.id), '[]'::json) from qs) as queries`,
  );
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
