import { and, eq, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { RecordStatus } from '@registry/shared/contracts/form-record';
import type { Executor } from '../../db/client';
import { dataQueries, formRecords, recordValueVersions } from '../../db/schema';

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
