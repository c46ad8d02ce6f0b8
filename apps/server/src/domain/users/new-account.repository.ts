import { and, eq, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { departments, users } from '../../db/schema';

/** Shared by every call that creates an account (project members, a tenant's first administrator). */
export async function findUsernameOrPhone(db: Executor, username: string, phone: string | null) {
  const rows = await db
    .select({ username: users.username, phone: users.phone })
    .from(users)
    .where(
      phone
        ? or(sql`lower(${users.username}) = lower(${username})`, eq(users.phone, phone))
        : sql`lower(${users.username}) = lower(${username})`,
    )
    .limit(2);
  return {
    usernameTaken: rows.some((r) => r.username.toLowerCase() === username.toLowerCase()),
    phoneTaken: phone !== null && rows.some((r) => r.phone === phone),
  };
}

export async function findOrCreateDepartment(db: Executor, tenantId: string, organisationId: string, name: string) {
  const [existing] = await db
    .select({ id: departments.id })
    .from(departments)
    .where(
      and(
        eq(departments.tenantId, tenantId),
        eq(departments.organisationId, organisationId),
        eq(departments.name, name),
      ),
    )
    .limit(1);
  if (existing) return existing.id;
  const [created] = await db
    .insert(departments)
    .values({ tenantId, organisationId, name })
    .returning({ id: departments.id });
  if (!created) throw new Error('department insert returned no row');
  return created.id;
}

export async function insertUser(db: Executor, values: typeof users.$inferInsert) {
  const [row] = await db
    .insert(users)
    .values(values)
    .returning({ id: users.id, username: users.username, name: users.name });
  if (!row) throw new Error('user insert returned no row');
  return row;
}
