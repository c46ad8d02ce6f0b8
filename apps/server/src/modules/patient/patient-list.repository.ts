import { and, count, eq, gte, ilike, isNull, lte, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { PatientFollowupStatus } from '@registry/shared/contracts/followup';
import { runPrepared, type Executor } from '../../db/client';
import { centers, followupAssignments, followupTasks, formRecords, patients } from '../../db/schema';
import { patientScope } from '../../domain/scope/patient-scope.repository';
import type { ProjectScope } from '../../domain/scope/project-scope';
import { escapeLike } from '../../lib/escape-like';
import {
  crfCondition,
  crfSortValue,
  listValuesSql,
  type PatientCrfQuery,
  type RecordAlias,
} from './patient-list-crf.repository';

/**
 * THE patient list query (`pagePatients`) and what it is made of: the scope and filters, the CRF joins, the order
 * and its segments, the page's rows (keyset or offset), the total. The CRF SQL: patient-list-crf.repository.ts.
 */

export type { PatientCrfQuery } from './patient-list-crf.repository';

/** The columns of a patient row as the list and the single reads give it. */
export const patientColumns = {
  id: patients.id,
  patientNo: patients.patientNo,
  name: patients.name,
  gender: patients.gender,
  birthDate: patients.birthDate,
  hospitalNo: patients.hospitalNo,
  idNumberEnc: patients.idNumberEnc,
  phoneEnc: patients.phoneEnc,
  centerId: patients.centerId,
  centerCode: centers.code,
  centerName: centers.name,
  subProjectId: patients.subProjectId,
  enrolDate: patients.enrolDate,
  status: patients.status,
  seq: patients.seq,
  rowVersion: patients.rowVersion,
  createdAt: patients.createdAt,
  updatedAt: patients.updatedAt,
};

export type PatientFilter = {
  /** Patient number; the hospital number and the name too when `piiSearch` (`patient.pii`). */
  keyword?: string;
  piiSearch: boolean;
  hospitalNo?: string;
  idNumberBi?: string;
  centerId?: string;
  status?: (typeof patients.status.enumValues)[number];
  enrolDateFrom?: string;
  enrolDateTo?: string;
  /** Follow-up status on `today`, an Asia/Shanghai calendar date (see `followupStatusCondition`). */
  followup?: { status: PatientFollowupStatus; today: string };
};

/**
 * The patient list's follow-up status (contract `PATIENT_FOLLOWUP_STATUSES`): `overdue` an open task past its window;
 * `due` an open task in its window and none overdue; `on_track` open tasks, none due or overdue; `lost` the patient is
 * lost to follow-up; `none` no active plan assignment.
 */
export function followupStatusCondition(status: PatientFollowupStatus, today: string): SQL {
  const open = (extra: SQL) =>
    sql`exists (select 1 from ${followupTasks} ft where ft.tenant_id = ${patients.tenantId} and ft.patient_id = ${patients.id} and ft.status = 'open' and ${extra})`;
  const overdue = open(sql`ft.window_end < ${today}::date`);
  switch (status) {
    case 'overdue':
      return overdue;
    case 'due':
      return sql`(${open(sql`ft.window_start <= ${today}::date and ft.window_end >= ${today}::date`)} and not ${overdue})`;
    case 'on_track':
      return sql`(${open(sql`true`)} and not ${open(sql`ft.window_start <= ${today}::date`)})`;
    case 'lost':
      return sql`${patients.followupLostAt} is not null`;
    case 'none':
      return sql`not exists (select 1 from ${followupAssignments} fa where fa.tenant_id = ${patients.tenantId} and fa.patient_id = ${patients.id} and fa.status = 'active')`;
  }
}

const SORT_COLUMNS = {
  patientNo: patients.seq,
  enrolDate: patients.enrolDate,
  createdAt: patients.createdAt,
  updatedAt: patients.updatedAt,
  status: patients.status,
  hospitalNo: patients.hospitalNo,
} as const;
export type PatientSortField = keyof typeof SORT_COLUMNS;

function filterConditions(scope: ProjectScope, f: PatientFilter): SQL[] {
  const conditions: SQL[] = [patientScope(scope)];
  if (f.keyword) {
    const p = escapeLike(f.keyword);
    const any = or(
      ilike(patients.patientNo, p),
      // identity data only with `patient.pii`: a partial match would spell out a masked value
      f.piiSearch ? ilike(patients.hospitalNo, p) : undefined,
      f.piiSearch ? ilike(patients.name, p) : undefined,
    );
    if (any) conditions.push(any);
  }
  if (f.hospitalNo) conditions.push(eq(patients.hospitalNo, f.hospitalNo));
  if (f.idNumberBi) conditions.push(eq(patients.idNumberBi, f.idNumberBi));
  if (f.centerId) conditions.push(eq(patients.centerId, f.centerId));
  if (f.status) conditions.push(eq(patients.status, f.status));
  if (f.enrolDateFrom) conditions.push(gte(patients.enrolDate, f.enrolDateFrom));
  if (f.enrolDateTo) conditions.push(lte(patients.enrolDate, f.enrolDateTo));
  if (f.followup) conditions.push(followupStatusCondition(f.followup.status, f.followup.today));
  return conditions;
}

/** A page's last row, from which the next page continues (keyset): its `seq` and whether its sort value is null. */
export type ListPosition = { seq: number; isNull: boolean };

/** The sort fields the list indexes of migration 0012 serve: keyset pages, index-only deep offsets. */
const INDEXED_SORTS = {
  createdAt: { column: patients.createdAt, nullable: false },
  updatedAt: { column: patients.updatedAt, nullable: false },
  enrolDate: { column: patients.enrolDate, nullable: true },
  patientNo: { column: patients.seq, nullable: false },
} as const;
export const KEYSET_SORT_FIELDS = Object.keys(INDEXED_SORTS) as (keyof typeof INDEXED_SORTS)[];

/** Exact totals up to this many rows; above it the planner's estimate (`totalExact` false). */
export const LIST_COUNT_CAP = 100_000;

/** A list's total: exact, or the planner's estimate when more than LIST_COUNT_CAP rows match. */
export type ListTotal = { total: number; exact: boolean };

export type PatientPaging = {
  current: number;
  size: number;
  sortField?: PatientSortField;
  sortOrder?: 'asc' | 'desc';
  /** Continue after this row (keyset) instead of skipping (current − 1) × size rows. */
  after?: ListPosition;
  /** Exact totals up to this many rows (default LIST_COUNT_CAP). */
  countCap?: number;
};

/** A page's query: its conditions and CRF joins, its order in segments, the columns it selects. */
type PageQuery = {
  db: Executor;
  where: SQL | undefined;
  joins: { fr: RecordAlias; on: SQL | undefined }[];
  /** The sort served by a list index, if any (keyset paging, index-only offsets). */
  indexed: (typeof INDEXED_SORTS)[keyof typeof INDEXED_SORTS] | undefined;
  descending: boolean;
  sortSql: SQL;
  order: SQL[];
  /** Where blanks of a nullable indexed sort form a segment of their own: the non-blank rows, then the blanks. */
  segments: (SQL | undefined)[];
  listValues: ReturnType<typeof listValuesSql>;
};

/** One alias per form that a filter or the sort reads, joined on its first live instance; the filters. */
function pageConditions(scope: ProjectScope, filter: PatientFilter, crf: PatientCrfQuery) {
  const aliases = new Map<string, RecordAlias>();
  const aliasOf = (formKey: string): RecordAlias => {
    let fr = aliases.get(formKey);
    if (fr === undefined) {
      fr = alias(formRecords, `fr${aliases.size}`);
      aliases.set(formKey, fr);
    }
    return fr;
  };
  const conditions = filterConditions(scope, filter);
  for (const c of crf.conditions) conditions.push(crfCondition(aliasOf(c.field.formKey), c));
  const sortAlias = crf.sortField ? aliasOf(crf.sortField.formKey) : undefined;
  const joinOn = (fr: RecordAlias, formKey: string) =>
    and(
      eq(fr.tenantId, scope.tenantId),
      eq(fr.patientId, patients.id),
      eq(fr.formKey, formKey),
      eq(fr.instance, 1),
      isNull(fr.deletedAt),
    );
  const joins = [...aliases].map(([formKey, fr]) => ({ fr, on: joinOn(fr, formKey) }));
  return { where: and(...conditions), joins, sortAlias };
}

/** The order: the sort column, then `seq` in the same direction, blanks last; an indexed sort's segments. */
function pageOrder(paging: PatientPaging, crf: PatientCrfQuery, sortAlias: RecordAlias | undefined) {
  const descending = paging.sortOrder !== 'asc';
  const indexed = crf.sortField ? undefined : INDEXED_SORTS[paging.sortField as keyof typeof INDEXED_SORTS];
  const sortSql =
    crf.sortField && sortAlias
      ? crfSortValue(sortAlias, crf.sortField)
      : sql`${indexed ? indexed.column : SORT_COLUMNS[paging.sortField ?? 'createdAt']}`;
  // Blanks last in both directions. An indexed sort reads its index forwards (desc) or backwards (asc); its blanks
  // form a segment of their own, so each segment is one stretch of the index in exactly the index's order.
  const order = indexed
    ? descending
      ? [sql`${sortSql} desc nulls last`, sql`${patients.seq} desc`]
      : [sql`${sortSql} asc nulls first`, sql`${patients.seq} asc`]
    : descending
      ? [sql`${sortSql} desc nulls last`, sql`${patients.seq} desc`]
      : [sql`${sortSql} asc nulls last`, sql`${patients.seq} asc`];
  const segments: (SQL | undefined)[] = indexed?.nullable
    ? [sql`${sortSql} is not null`, sql`${sortSql} is null`]
    : [undefined];
  return { descending, indexed, sortSql, order, segments };
}

/** `select 1 from patients` with the CRF joins, filtered: what the total counts. */
function matching(pq: PageQuery, extra?: SQL) {
  let q = pq.db
    .select({ one: sql<number>`1` })
    .from(patients)
    .$dynamic();
  for (const j of pq.joins) q = q.leftJoin(j.fr, j.on);
  return q.where(extra === undefined ? pq.where : and(pq.where, extra));
}

function rowsWhere(pq: PageQuery, extra: SQL | undefined) {
  let q = pq.db
    .select({ ...patientColumns, sortIsNull: sql<boolean>`(${pq.sortSql}) is null`, listValues: pq.listValues })
    .from(patients)
    .innerJoin(centers, eq(centers.id, patients.centerId))
    .$dynamic();
  for (const j of pq.joins) q = q.leftJoin(j.fr, j.on);
  return q.where(and(pq.where, extra)).orderBy(...pq.order);
}

/** The ids of a page of one segment (an index-only scan with an indexed sort), then only their rows. */
function deferred(pq: PageQuery, segment: SQL | undefined, offset: number, limit: number) {
  let q = pq.db.select({ pageId: patients.id }).from(patients).$dynamic();
  for (const j of pq.joins) q = q.leftJoin(j.fr, j.on);
  const ids = q
    .where(and(pq.where, segment))
    .orderBy(...pq.order)
    .limit(limit)
    .offset(offset)
    .as('page_ids');
  return rowsWhere(pq, segment).innerJoin(ids, eq(ids.pageId, patients.id));
}

type PageRow = Awaited<ReturnType<typeof rowsWhere>>[number];

/** The page's rows: after a position (keyset), or by offset through the segments. */
async function pageRows(pq: PageQuery, paging: PatientPaging, projectId: string): Promise<PageRow[]> {
  const { db, indexed, segments, descending } = pq;
  const rows: PageRow[] = [];
  if (indexed && paging.after) {
    // Keyset: from the segment of the position on, the first one entered right after the position.
    const { after } = paging;
    const first = indexed.nullable && after.isNull ? 1 : 0;
    for (let i = first; i < segments.length && rows.length < paging.size; i++) {
      const past = i === first ? pastPosition(indexed.column, descending, after, projectId) : undefined;
      rows.push(...(await runPrepared(rowsWhere(pq, and(segments[i], past)).limit(paging.size - rows.length))));
    }
  } else {
    let skip = (paging.current - 1) * paging.size;
    for (const segment of segments) {
      // The first page needs no deferred join: the index hands over its first rows directly.
      const need = paging.size - rows.length;
      const got = await runPrepared(
        skip === 0 ? rowsWhere(pq, segment).limit(need) : deferred(pq, segment, skip, need),
      );
      rows.push(...got);
      if (rows.length >= paging.size) break;
      if (got.length > 0) skip = 0;
      else if (skip > 0) {
        // The page starts beyond this segment: skip its rows (counted up to the offset) in the next.
        const [c] = await db.select({ n: count() }).from(matching(pq, segment).limit(skip).as('skipped'));
        skip -= c?.n ?? 0;
      }
    }
  }
  return rows;
}

/**
 * The total: known from a page by offset that is not full (the list ends on it); else an index-only count of at most
 * LIST_COUNT_CAP + 1 entries, else the planner's estimate. A page after a position does not know its offset.
 */
async function pageTotal(
  pq: PageQuery,
  paging: PatientPaging,
  rowCount: number,
  counted: (count: () => Promise<ListTotal>) => Promise<ListTotal>,
): Promise<ListTotal> {
  const { db, indexed } = pq;
  const offset = (paging.current - 1) * paging.size;
  const ended = !(indexed && paging.after) && (rowCount > 0 ? rowCount < paging.size : offset === 0);
  const { total, exact: totalExact } = ended
    ? { total: offset + rowCount, exact: true }
    : await counted(async () => {
        const cap = paging.countCap ?? LIST_COUNT_CAP;
        const [c] = await runPrepared(
          db.select({ n: count() }).from(
            matching(pq)
              .limit(cap + 1)
              .as('capped'),
          ),
        );
        const n = c?.n ?? 0;
        if (n <= cap) return { total: n, exact: true };
        return { total: Math.max(cap + 1, await estimateRows(db, matching(pq))), exact: false };
      });
  return { total, exact: totalExact };
}

/**
 * THE patient list query (`POST patient-info/page`), tuned by `npm run bench` (P1): the scope and filters of
 * `filterConditions`, CRF filters and the `field:<key>` sort on the first live instance of their form (one LEFT JOIN
 * per form involved, on the unique index (tenant, patient, form, instance)); one query answers the page's rows with
 * the list fields' values of its patients, another the total (which the caller may remember per list). Field keys come
 * from the published definition (and match the key pattern); every value is a bound parameter.
 *
 * Order: the sort column, then `seq` in the same direction, blanks last in both directions (like the CRF-field sorts).
 * With an indexed sort each stretch of the list (the values, then the blanks) is exactly the order of its list index
 * read forwards (desc) or backwards (asc). A page of an indexed sort (`INDEXED_SORTS`) is found either after a
 * position (keyset: the index is entered at the cursor, page 2,000 costs what page 1 costs) or by OFFSET through a
 * deferred join (the ids of the page from an index-only scan, then their rows). The total is exact up to
 * LIST_COUNT_CAP rows and otherwise the planner's estimate: counting a million rows would cost ~100 ms; a page by
 * offset that is not full ends the list and gives the exact total without a count.
 */
export async function pagePatients(
  db: Executor,
  scope: ProjectScope,
  filter: PatientFilter,
  paging: PatientPaging,
  crf: PatientCrfQuery = { fields: [], conditions: [] },
  /** Runs (or remembers, per list) the count of the total. */
  counted: (count: () => Promise<ListTotal>) => Promise<ListTotal> = (count) => count(),
) {
  const { where, joins, sortAlias } = pageConditions(scope, filter, crf);
  const pq: PageQuery = {
    db,
    where,
    joins,
    ...pageOrder(paging, crf, sortAlias),
    listValues: listValuesSql(scope.tenantId, crf.fields),
  };
  const rows = await pageRows(pq, paging, scope.rootProjectId);
  const records = rows.map(({ sortIsNull: _sortIsNull, listValues: _values, ...r }) => r);
  const last = rows.at(-1);
  const next: ListPosition | null =
    pq.indexed && last && rows.length === paging.size ? { seq: last.seq, isNull: last.sortIsNull } : null;
  const { total, exact: totalExact } = await pageTotal(pq, paging, rows.length, counted);

  const values = new Map<string, Map<string, Record<string, unknown>>>();
  for (const row of rows) {
    const byForm = new Map<string, Record<string, unknown>>();
    for (const [formKey, data] of Object.entries(row.listValues ?? {})) if (data) byForm.set(formKey, data);
    values.set(row.id, byForm);
  }
  return { records, total, totalExact, next, values };
}

/** The planner's row estimate of a query (EXPLAIN, not run). */
async function estimateRows(db: Executor, query: SQLWrapper): Promise<number> {
  const result = await db.execute<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
    sql`explain (format json) ${query}`,
  );
  return Math.round(result.rows[0]?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0);
}

/**
 * The rows after position `after` within its segment of the list order. Its sort value is read by `seq` (the unique
 * project sequence), so a timestamp never loses its microseconds on the way through a cursor; the row comparison is a
 * start key of the list index. Among blanks the order is by `seq`.
 */
function pastPosition(column: AnyPgColumn, descending: boolean, after: ListPosition, projectId: string): SQL {
  const past = descending ? sql`<` : sql`>`;
  if (column === patients.seq || after.isNull) return sql`${patients.seq} ${past} ${after.seq}`;
  const value = sql`(select ${column} from ${patients} where ${patients.projectId} = ${projectId} and ${patients.seq} = ${after.seq})`;
  return sql`(${column}, ${patients.seq}) ${past} (${value}, ${after.seq})`;
}

/** A patient as the list and the single reads give it. */
export type PatientRow = Awaited<ReturnType<typeof pagePatients>>['records'][number];
