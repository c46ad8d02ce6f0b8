import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { files, users } from '../../db/schema';

export async function updateUserProfile(
  db: Executor,
  id: string,
  set: { name?: string; avatar?: string | null; updatedAt: Date },
): Promise<void> {
  await db.update(users).set(set).where(eq(users.id, id));
}

export async function updateUserPassword(db: Executor, id: string, passwordHash: string, at: Date): Promise<void> {
  await db.update(users).set({ passwordHash, initPwd: false, updatedAt: at }).where(eq(users.id, id));
}

export async function findOwnFile(db: Executor, fileId: string, ownerId: string) {
  const rows = await db
    .select({ id: files.id, contentType: files.contentType })
    .from(files)
    .where(and(eq(files.id, fileId), eq(files.ownerId, ownerId)))
    .limit(1);
  return rows[0];
}
