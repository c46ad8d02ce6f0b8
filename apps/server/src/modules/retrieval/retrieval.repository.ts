import { and, count, desc, eq, getTableColumns, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { isQueryCanceled } from '../../lib/errors';
import type { FieldSearchKind } from '@registry/shared/cohort/operators';
import { formRecords } from '../../db/schema/records';
import { users } from '../../db/schema/identity';
import { patients } from '../../db/schema/patients';
import { centers } from '../../db/schema/projects';
import { retrievalQueries } from '../../db/schema/retrieval';
import type { ProjectScope } from '../../domain/scope/project-scope';
import { patientScope } from '../../domain/scope/patient-scope.repository';
import { sortValue } from '../../domain/cohort/cohort.repository';

/**
 * `read` in one repeatable-read snapshot (so a count and a page agree) bounded by a statement timeout: a cohort that
 * would scan too long is cancelled by PostgreSQL and answered `timedOut` instead of holding a connection.
 */
async function inSnapshot<T>(
  db: Executor,
  timeoutMs: number,
  accessMode: 'read only' | 'read write',
  read: (tx: Executor) => Promise<T>,
): Promise<T | 'timedOut'> {
  try {
    return await db.transaction(
      async (tx) => {
        await tx.execute(sql`select set_config('statement_timeout', ${String(timeoutMs)}, true)`);
        return read(tx);
      },
      { isolationLevel: 'repeatable read', accessMode },
    );
  } catch (err) {
    if (isQueryCanceled(err)) return 'timedOut';
    throw err;
  }
}

/** The patients of the caller's scope a compiled cohort predicate selects, and all of them (read only). */
export async function countCohort(
  db: Executor,
  scope: ProjectScope,
  predicate: SQL,
  timeoutMs: number,
): Promise<{ count: number; total: number } | 'timedOut'> {
  return inSnapshot(db, timeoutMs, 'read only', async (tx) => {
    const [row] = await tx
      .select({ count: sql<number>`count(*) filter (where ${predicate})::int`, total: count() })
      .from(patients)
      .where(patientScope(scope));
    return { count: row?.count ?? 0, total: row?.total ?? 0 };
  });
}

// ---- saved queries ------------------------------------------------------------------------------------------------

export const QUERY_NAME_UNIQUE = 'retrieval_queries_owner_name_uq';

export type SavedQueryRow = typeof retrievalQueries.$inferSelect & { ownerName: string };

/** The live saved queries of the scope's project the user may see (their own and the shared), newest change first. */
export async function listSavedQueries(db: Executor, scope: ProjectScope, id?: string): Promise<SavedQueryRow[]> {
  return db
    .select({ ...getTableColumns(retrievalQueries), ownerName: users.name })
    .from(retrievalQueries)
    .innerJoin(users, eq(users.id, retrievalQueries.ownerId))
    .where(
      and(
        eq(retrievalQueries.tenantId, scope.tenantId),
        eq(retrievalQueries.projectId, scope.projectId),
        isNull(retrievalQueries.deletedAt),
        or(eq(retrievalQueries.ownerId, scope.userId), eq(retrievalQueries.shared, true)),
        id ? eq(retrievalQueries.id, id) : undefined,
      ),
    )
    .orderBy(desc(retrievalQueries.updatedAt), retrievalQueries.id);
}

export async function insertSavedQuery(tx: Executor, values: typeof retrievalQueries.$inferInsert): Promise<string> {
  const [row] = await tx.insert(retrievalQueries).values(values).returning({ id: retrievalQueries.id });
  if (!row) throw new Error('insert returned no row');
  return row.id;
}

/** Updates the owner's live query at `rowVersion`; false when it changed or went meanwhile. */
export async function updateSavedQuery(
  tx: Executor,
  scope: ProjectScope,
  id: string,
  rowVersion: number,
  set: Partial<typeof retrievalQueries.$inferInsert>,
): Promise<boolean> {
  const rows = await tx
    .update(retrievalQueries)
    .set({ ...set, rowVersion: sql`${retrievalQueries.rowVersion} + 1` })
    .where(
      and(
        eq(retrievalQueries.tenantId, scope.tenantId),
        eq(retrievalQueries.projectId, scope.projectId),
        eq(retrievalQueries.ownerId, scope.userId),
        eq(retrievalQueries.id, id),
        eq(retrievalQueries.rowVersion, rowVersion),
        isNull(retrievalQueries.deletedAt),
      ),
    )
    .returning({ id: retrievalQueries.id });
  return rows.length === 1;
}

// ---- the cohort's patients ------------------------------------------------------------------------------------------

export type CohortPageRow = {
  id: string;
  patientNo: string;
  name: string;
  gender: string | null;
  centerName: string;
  enrolDate: string | null;
  status: string;
  /** The read columns' stored values by `form.field` (absent: no record, or no value there). */
  values: Record<string, unknown>;
};

/** A CRF column to read: its `form.field` key and keys (checked against the forms before; bound as parameters). */
export type PageColumn = { key: string; formKey: string; fieldKey: string };

/** The order of the page: a patient column, or a CRF field's sort key (`sortValue` of its kind). */
export type PageSort =
  { patient: 'patientNo' | 'enrolDate' } | { column: { formKey: string; fieldKey: string; kind: FieldSearchKind } };

/** The stored value (jsonb) of a field of the patient's instance 1 of a form, as a sort key. */
function fieldSortKey(column: { formKey: string; fieldKey: string; kind: FieldSearchKind }): SQL {
  const value = sortValue(column.kind, sql`(r.data -> ${column.fieldKey}::text)`);
  return sql`(select ${value} from ${formRecords} r where r.tenant_id = ${patients.tenantId}
    and r.patient_id = ${patients.id} and r.form_key = ${column.formKey}::text and r.instance = 1
    and r.deleted_at is null)`;
}

/**
 * The columns' values of the page's patients: each form's instance 1 (live), only the columns' keys picked from its
 * data (a key of no column never leaves the database).
 */
async function columnValues(
  tx: Executor,
  tenantId: string,
  ids: string[],
  columns: readonly PageColumn[],
): Promise<Map<string, Record<string, unknown>>> {
  const out = new Map<string, Record<string, unknown>>();
  if (ids.length === 0 || columns.length === 0) return out;
  const byForm = new Map<string, PageColumn[]>();
  for (const c of columns) byForm.set(c.formKey, [...(byForm.get(c.formKey) ?? []), c]);
  const picked = sql.join(
    [...byForm].map(
      ([formKey, cs]) =>
        sql`when ${formKey}::text then jsonb_build_object(${sql.join(
          cs.map((c) => sql`${c.key}::text, ${formRecords.data} -> ${c.fieldKey}::text`),
          sql`, `,
        )})`,
    ),
    sql` `,
  );
  const rows = await tx
    .select({
      patientId: formRecords.patientId,
      picked: sql<Record<string, unknown> | null>`(case ${formRecords.formKey} ${picked} end)`,
    })
    .from(formRecords)
    .where(
      and(
        eq(formRecords.tenantId, tenantId),
        inArray(formRecords.patientId, ids),
        inArray(formRecords.formKey, [...byForm.keys()]),
        eq(formRecords.instance, 1),
        isNull(formRecords.deletedAt),
      ),
    );
  for (const row of rows) out.set(row.patientId, { ...out.get(row.patientId), ...row.picked });
  return out;
}

/**
 * A page of the patients of the caller's scope the predicate selects, and how many there are, in one snapshot
 * (repeatable read) bounded by a statement timeout; `alsoInTx` runs in the same transaction (the audit of an
 * identified read). Ordered by the chosen column (a CRF field's blank or ill-typed value last either way), then the
 * patient's sequence (a stable order for paging); the `columns` values read from each form's instance 1.
 */
export async function cohortPage(
  db: Executor,
  scope: ProjectScope,
  predicate: SQL,
  page: { offset: number; limit: number; sort: PageSort; order: 'asc' | 'desc'; columns: readonly PageColumn[] },
  timeoutMs: number,
  alsoInTx: (tx: Executor, ids: string[]) => Promise<void>,
): Promise<{ rows: CohortPageRow[]; total: number } | 'timedOut'> {
  const direction = page.order === 'desc' ? sql`desc` : sql`asc`;
  const { sort } = page;
  const sortColumn =
    'column' in sort
      ? fieldSortKey(sort.column)
      : sort.patient === 'enrolDate'
        ? sql`${patients.enrolDate}`
        : sql`${patients.seq}`;
  // read write: `alsoInTx` may write the audit of the identified read
  return inSnapshot(db, timeoutMs, 'read write', async (tx) => {
    const where = and(patientScope(scope), predicate);
    const [counted] = await tx.select({ total: count() }).from(patients).where(where);
    const rows = await tx
      .select({
        id: patients.id,
        patientNo: patients.patientNo,
        name: patients.name,
        gender: patients.gender,
        centerName: centers.name,
        enrolDate: patients.enrolDate,
        status: patients.status,
      })
      .from(patients)
      .innerJoin(centers, eq(centers.id, patients.centerId))
      .where(where)
      .orderBy(sql`${sortColumn} ${direction} nulls last`, patients.seq)
      .limit(page.limit)
      .offset(page.offset);
    const ids = rows.map((r) => r.id);
    const values = await columnValues(tx, scope.tenantId, ids, page.columns);
    await alsoInTx(tx, ids);
    return { rows: rows.map((r) => ({ ...r, values: values.get(r.id) ?? {} })), total: counted?.total ?? 0 };
  });
}
