import { and, count, eq, gte, ilike, inArray, isNull, lte, ne, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { runPrepared, type Executor } from '../../db/client';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { PatientFollowupStatus } from '@registry/shared/contracts/followup';
import { centers, followupAssignments, followupTasks, formRecords, patients } from '../../db/schema';
import { escapeLike } from '../../lib/escape-like';
import { centerCondition } from '../../domain/scope/project-scope.repository';
import { patientScope } from '../../domain/scope/patient-scope.repository';
import type { ProjectScope } from '../../domain/scope/project-scope';
import type { FieldCondition, ListField } from './patient-list-fields';

const columns = {
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
  /** Follow-up status (issue 6) on `today`, an Asia/Shanghai calendar date (see `followupStatusCondition`). */
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

/** CRF conditions of a page: the list fields to show, the checked filters on them, and a field to sort by. */
export type PatientCrfQuery = {
  /** The list fields whose values the page carries (`fields` of each record). */
  fields: readonly ListField[];
  conditions: readonly FieldCondition[];
  sortField?: ListField;
};

type RecordAlias = ReturnType<typeof alias<typeof formRecords, string>>;

/** A list field's stored value (jsonb) on the joined record of its form. */
const jsonValue = (fr: RecordAlias, field: ListField): SQL => sql`(${fr.data} -> ${field.key})`;
const textValue = (fr: RecordAlias, field: ListField): SQL => sql`(${fr.data} ->> ${field.key})`;
/** A numeric field's value as numeric; a missing-data code (a string) or anything else reads as null. */
const numericValue = (fr: RecordAlias, field: ListField): SQL =>
  sql`(case when jsonb_typeof(${jsonValue(fr, field)}) = 'number' then (${jsonValue(fr, field)})::numeric end)`;
/** A date field's value as `YYYY-MM-DD…` text; a missing-data code reads as null (dates start with 4 digits). */
const dateValue = (fr: RecordAlias, field: ListField): SQL =>
  sql`(case when ${textValue(fr, field)} ~ '^[0-9]{4}' then left(${textValue(fr, field)}, 10) end)`;

/** The SQL of one checked CRF filter on the joined record of its form (values always bound parameters). */
function crfCondition(fr: RecordAlias, c: FieldCondition): SQL {
  const { field } = c;
  const value = jsonValue(fr, field);
  switch (c.op) {
    case 'empty':
      return sql`coalesce(${value}, 'null'::jsonb) in ('null'::jsonb, '""'::jsonb, '[]'::jsonb)`;
    case 'notEmpty':
      return sql`coalesce(${value}, 'null'::jsonb) not in ('null'::jsonb, '""'::jsonb, '[]'::jsonb)`;
    case 'contains':
      return sql`${textValue(fr, field)} ilike ${escapeLike(c.value)}`;
    case 'eq': {
      if (field.type === 'datetime' && typeof c.value === 'string' && !field.missingCodes.includes(c.value))
        return sql`${dateValue(fr, field)} = ${c.value}`;
      // Containment (`data @> {"key": value}`): exact for numbers, codes and text, and a GIN index can answer it.
      const stored =
        field.kind === 'multi' && typeof c.value === 'string' && !field.missingCodes.includes(c.value)
          ? [c.value]
          : c.value;
      return sql`${fr.data} @> ${JSON.stringify({ [field.key]: stored })}::jsonb`;
    }
    case 'gte':
    case 'lte': {
      const op = c.op === 'gte' ? sql`>=` : sql`<=`;
      return field.kind === 'number'
        ? sql`${numericValue(fr, field)} ${op} ${c.value}::numeric`
        : sql`${dateValue(fr, field)} ${op} ${String(c.value)}`;
    }
  }
}

/** The ORDER BY expression of a list field: numbers as numbers, dates and codes as text. */
function crfSortValue(fr: RecordAlias, field: ListField): SQL {
  return field.kind === 'number'
    ? numericValue(fr, field)
    : field.kind === 'date'
      ? dateValue(fr, field)
      : textValue(fr, field);
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

/** The columns of a patient as written. */
export type PatientInsert = typeof patients.$inferInsert;

/**
 * THE patient list query (`POST patient-info/page`), tuned by `npm run bench` (P1): the scope and filters of
 * `filterConditions`, CRF filters and the `field:<key>` sort on the first live instance of their form (one LEFT JOIN
 * per form involved, on the unique index (tenant, patient, form, instance)); one query answers the page's rows with
 * the list fields' values of its patients, another the total (which the caller may remember per list). Field keys come from the published definition (and match
 * the key pattern); every value is a bound parameter.
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
  // One alias per form that a filter or the sort reads.
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
  const where = and(...conditions);
  const joins = [...aliases].map(([formKey, fr]) => ({ fr, on: joinOn(fr, formKey) }));
  /** `select 1 from patients` with the CRF joins, filtered: what the total counts. */
  const matching = () => {
    let q = db
      .select({ one: sql<number>`1` })
      .from(patients)
      .$dynamic();
    for (const j of joins) q = q.leftJoin(j.fr, j.on);
    return q.where(where);
  };
  // The list fields' values of the page's patients: the listed keys of the first live instance of each form.
  const forms = new Map<string, string[]>();
  for (const f of crf.fields) forms.set(f.formKey, [...(forms.get(f.formKey) ?? []), f.key]);
  const picked = sql.join(
    [...forms].map(
      ([formKey, keys]) =>
        sql`when ${formKey}::text then jsonb_build_object(${sql.join(
          keys.map((k) => sql`${k}::text, ${formRecords.data} -> ${k}::text`),
          sql`, `,
        )})`,
    ),
    sql` `,
  );
  const listValues = forms.size
    ? sql<Record<
        string,
        Record<string, unknown>
      > | null>`(select jsonb_object_agg(${formRecords.formKey}, case ${formRecords.formKey} ${picked} end)
        from ${formRecords} where ${formRecords.tenantId} = ${scope.tenantId} and ${formRecords.patientId} = ${patients.id}
         and ${formRecords.formKey} in ${[...forms.keys()]} and ${formRecords.instance} = 1 and ${formRecords.deletedAt} is null)`
    : sql<null>`null::jsonb`;

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

  const rowsWhere = (extra: SQL | undefined) => {
    let q = db
      .select({ ...columns, sortIsNull: sql<boolean>`(${sortSql}) is null`, listValues })
      .from(patients)
      .innerJoin(centers, eq(centers.id, patients.centerId))
      .$dynamic();
    for (const j of joins) q = q.leftJoin(j.fr, j.on);
    return q.where(and(where, extra)).orderBy(...order);
  };
  /** The ids of a page of one segment (an index-only scan with an indexed sort), then only their rows. */
  const deferred = (segment: SQL | undefined, offset: number, limit: number) => {
    let q = db.select({ pageId: patients.id }).from(patients).$dynamic();
    for (const j of joins) q = q.leftJoin(j.fr, j.on);
    const ids = q
      .where(and(where, segment))
      .orderBy(...order)
      .limit(limit)
      .offset(offset)
      .as('page_ids');
    return rowsWhere(segment).innerJoin(ids, eq(ids.pageId, patients.id));
  };

  type Row = Awaited<ReturnType<typeof rowsWhere>>[number];
  const rows: Row[] = [];
  if (indexed && paging.after) {
    // Keyset: from the segment of the position on, the first one entered right after the position.
    const { after } = paging;
    const first = indexed.nullable && after.isNull ? 1 : 0;
    for (let i = first; i < segments.length && rows.length < paging.size; i++) {
      const past = i === first ? pastPosition(indexed.column, descending, after, scope.rootProjectId) : undefined;
      rows.push(...(await runPrepared(rowsWhere(and(segments[i], past)).limit(paging.size - rows.length))));
    }
  } else {
    let skip = (paging.current - 1) * paging.size;
    for (const segment of segments) {
      // The first page needs no deferred join: the index hands over its first rows directly.
      const need = paging.size - rows.length;
      const got = await runPrepared(skip === 0 ? rowsWhere(segment).limit(need) : deferred(segment, skip, need));
      rows.push(...got);
      if (rows.length >= paging.size) break;
      if (got.length > 0) skip = 0;
      else if (skip > 0) {
        // The page starts beyond this segment: skip its rows (counted up to the offset) in the next.
        let q = db
          .select({ one: sql<number>`1` })
          .from(patients)
          .$dynamic();
        for (const j of joins) q = q.leftJoin(j.fr, j.on);
        const [c] = await db.select({ n: count() }).from(q.where(and(where, segment)).limit(skip).as('skipped'));
        skip -= c?.n ?? 0;
      }
    }
  }
  const records = rows.map(({ sortIsNull: _sortIsNull, listValues: _values, ...r }) => r);
  const last = rows.at(-1);
  const next: ListPosition | null =
    indexed && last && rows.length === paging.size ? { seq: last.seq, isNull: last.sortIsNull } : null;

  // The total: known from a page by offset that is not full (the list ends on it); else an index-only count of at most
  // LIST_COUNT_CAP + 1 entries, else the planner's estimate. A page after a position does not know its offset.
  const offset = (paging.current - 1) * paging.size;
  const ended = !(indexed && paging.after) && (rows.length > 0 ? rows.length < paging.size : offset === 0);
  const { total, exact: totalExact } = ended
    ? { total: offset + rows.length, exact: true }
    : await counted(async () => {
        const cap = paging.countCap ?? LIST_COUNT_CAP;
        const [c] = await runPrepared(
          db.select({ n: count() }).from(
            matching()
              .limit(cap + 1)
              .as('capped'),
          ),
        );
        const n = c?.n ?? 0;
        if (n <= cap) return { total: n, exact: true };
        return { total: Math.max(cap + 1, await estimateRows(db, matching())), exact: false };
      });

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

export type PatientRow = Awaited<ReturnType<typeof pagePatients>>['records'][number];

export async function findPatient(db: Executor, scope: ProjectScope, id: string): Promise<PatientRow | undefined> {
  const [row] = await runPrepared(
    db
      .select(columns)
      .from(patients)
      .innerJoin(centers, eq(centers.id, patients.centerId))
      .where(and(patientScope(scope), eq(patients.id, id)))
      .limit(1),
  );
  return row;
}

/** A live patient of the project holding this blind index or hospital number (other than `exceptId`). */
export async function findDuplicate(
  db: Executor,
  projectId: string,
  by: { idNumberBi?: string | null; hospitalNo?: string | null },
  exceptId?: string,
) {
  const found: { kind: 'idNumber' | 'hospitalNo'; patientNo: string; name: string }[] = [];
  const probe = async (kind: 'idNumber' | 'hospitalNo', condition: SQL) => {
    const [row] = await db
      .select({ patientNo: patients.patientNo, name: patients.name })
      .from(patients)
      .where(
        and(
          eq(patients.projectId, projectId),
          isNull(patients.deletedAt),
          condition,
          exceptId ? ne(patients.id, exceptId) : undefined,
        ),
      )
      .limit(1);
    if (row) found.push({ kind, ...row });
  };
  if (by.idNumberBi) await probe('idNumber', eq(patients.idNumberBi, by.idNumberBi));
  if (by.hospitalNo) await probe('hospitalNo', eq(patients.hospitalNo, by.hospitalNo));
  return found;
}

/** An open center of the project (`centers.status = 'active'`) within the scope's center rule. */
export async function findOpenCenter(db: Executor, scope: ProjectScope, centerId: string) {
  const [row] = await db
    .select({ id: centers.id, code: centers.code })
    .from(centers)
    .where(
      and(
        eq(centers.tenantId, scope.tenantId),
        eq(centers.projectId, scope.rootProjectId),
        eq(centers.id, centerId),
        eq(centers.status, 'active'),
        centerCondition(scope, centers.id),
      ),
    )
    .limit(1);
  return row;
}

/**
 * The next project sequence number. Serialised per project by a transaction-scoped advisory lock, so concurrent adds
 * never collide; numbers of deleted patients are not reused.
 */
export async function nextPatientSeq(tx: Executor, projectId: string): Promise<number> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`patients:${projectId}`}, 0))`);
  const [row] = await tx
    .select({ max: sql<number>`coalesce(max(${patients.seq}), 0)::int` })
    .from(patients)
    .where(eq(patients.projectId, projectId));
  return (row?.max ?? 0) + 1;
}

export async function insertPatientRow(tx: Executor, values: typeof patients.$inferInsert) {
  const [row] = await tx.insert(patients).values(values).returning({ id: patients.id });
  if (!row) throw new Error('patient insert returned no row');
  return row;
}

/** `UPDATE ... WHERE row_version = $n`: undefined when the row changed meanwhile (or is gone). */
export async function updatePatientRow(
  tx: Executor,
  scope: ProjectScope,
  id: string,
  rowVersion: number,
  set: Partial<typeof patients.$inferInsert>,
) {
  const [row] = await tx
    .update(patients)
    .set({ ...set, rowVersion: sql`${patients.rowVersion} + 1` })
    .where(and(patientScope(scope), eq(patients.id, id), eq(patients.rowVersion, rowVersion)))
    .returning({ id: patients.id, rowVersion: patients.rowVersion });
  return row;
}

/** Soft-deletes the live patients of the scope among `ids`; answers the ids it deleted. */
export async function softDeletePatients(
  tx: Executor,
  scope: ProjectScope,
  ids: string[],
  set: { deletedAt: Date; deleteReason: string; updatedBy: string; updatedAt: Date },
) {
  return tx
    .update(patients)
    .set({ ...set, rowVersion: sql`${patients.rowVersion} + 1` })
    .where(and(patientScope(scope), inArray(patients.id, ids)))
    .returning({ id: patients.id, patientNo: patients.patientNo });
}

/** The live patients of the scope with one of these patient numbers or hospital numbers (the import's matches). */
export async function findVisiblePatients(
  db: Executor,
  scope: ProjectScope,
  by: { patientNos: readonly string[]; hospitalNos: readonly string[] },
): Promise<PatientRow[]> {
  if (by.patientNos.length === 0 && by.hospitalNos.length === 0) return [];
  const match = or(
    by.patientNos.length > 0 ? inArray(patients.patientNo, [...by.patientNos]) : undefined,
    by.hospitalNos.length > 0 ? inArray(patients.hospitalNo, [...by.hospitalNos]) : undefined,
  );
  return db
    .select(columns)
    .from(patients)
    .innerJoin(centers, eq(centers.id, patients.centerId))
    .where(and(patientScope(scope), match));
}

/**
 * The live patients of the whole project (every center and cohort: duplicates count project-wide) holding one of
 * these hospital numbers or identity-number blind indexes.
 */
export async function findProjectDuplicates(
  db: Executor,
  projectId: string,
  by: { hospitalNos: readonly string[]; idNumberBis: readonly string[] },
) {
  if (by.hospitalNos.length === 0 && by.idNumberBis.length === 0) return [];
  return db
    .select({
      id: patients.id,
      patientNo: patients.patientNo,
      hospitalNo: patients.hospitalNo,
      idNumberBi: patients.idNumberBi,
    })
    .from(patients)
    .where(
      and(
        eq(patients.projectId, projectId),
        isNull(patients.deletedAt),
        or(
          by.hospitalNos.length > 0 ? inArray(patients.hospitalNo, [...by.hospitalNos]) : undefined,
          by.idNumberBis.length > 0 ? inArray(patients.idNumberBi, [...by.idNumberBis]) : undefined,
        ),
      ),
    );
}
