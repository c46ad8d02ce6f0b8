import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { departments, files, organisations, tenants, users } from '../../db/schema';

export async function findUserById(db: Executor, id: string) {
  const rows = await db
    .select({
      id: users.id,
      tenantId: users.tenantId,
      tenantType: tenants.type,
      username: users.username,
      name: users.name,
      avatar: users.avatar,
      userType: users.userType,
      initPwd: users.initPwd,
      passwordHash: users.passwordHash,
      hospitalName: organisations.name,
      departmentName: departments.name,
    })
    .from(users)
    .innerJoin(tenants, eq(tenants.id, users.tenantId))
    .leftJoin(organisations, eq(organisations.id, users.organisationId))
    .leftJoin(departments, eq(departments.id, users.departmentId))
    .where(eq(users.id, id))
    .limit(1);
  return rows[0];
}

export type UserRecord = NonNullable<Awaited<ReturnType<typeof findUserById>>>;

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
