import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { files } from '../../db/schema';

export type NewFileRow = typeof files.$inferInsert;
export type FileRow = typeof files.$inferSelect;

export async function insertFile(db: Executor, row: NewFileRow): Promise<FileRow> {
  const [created] = await db.insert(files).values(row).returning();
  if (!created) throw new Error('file insert returned no row');
  return created;
}

/** A file of the tenant; another tenant's id answers exactly like a missing one. */
export async function findFileInTenant(db: Executor, tenantId: string, id: string): Promise<FileRow | undefined> {
  const rows = await db
    .select()
    .from(files)
    .where(and(eq(files.tenantId, tenantId), eq(files.id, id)))
    .limit(1);
  return rows[0];
}
