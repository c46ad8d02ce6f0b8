import { and, count, desc, eq, getTableColumns, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { isQueryCanceled } from '../../lib/errors';
import { users } from '../../db/schema/identity';
import { patients } from '../../db/schema/patients';
import { centers } from '../../db/schema/projects';
import { retrievalQueries } from '../../db/schema/retrieval';
import type { ProjectScope } from '../../domain/scope/project-scope';
import { patientScope } from '../../domain/scope/patient-scope.repository';

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
};

/**
 * A page of the patients of the caller's scope the predicate selects, and how many there are, in one snapshot
 * (repeatable read) bounded by a statement timeout; `alsoInTx` runs in the same transaction (the audit of an
 * identified read). Ordered by the chosen column, then the patient's sequence (a stable order for paging).
 */
export async function cohortPage(
  db: Executor,
  scope: ProjectScope,
  predicate: SQL,
  page: { offset: number; limit: number; sort: 'patientNo' | 'enrolDate'; order: 'asc' | 'desc' },
  timeoutMs: number,
  alsoInTx: (tx: Executor, ids: string[]) => Promise<void>,
): Promise<{ rows: CohortPageRow[]; total: number } | 'timedOut'> {
  const direction = page.order === 'desc' ? sql`desc` : sql`asc`;
  const sortColumn = page.sort === 'enrolDate' ? sql`${patients.enrolDate}` : sql`${patients.seq}`;
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
    await alsoInTx(
      tx,
      rows.map((r) => r.id),
    );
    return { rows, total: counted?.total ?? 0 };
  });
}
