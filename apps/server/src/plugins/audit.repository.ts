import { runPrepared, type Executor } from '../db/client';
import { auditEvents } from '../db/schema';

/** The columns of an audit event as written. */
export type AuditRow = typeof auditEvents.$inferInsert;

/** Inserts one audit event with the change's executor (a prepared statement: its shape never changes). */
export async function insertAuditRow(tx: Executor, row: AuditRow): Promise<void> {
  await runPrepared(tx.insert(auditEvents).values(row));
}
