import { and, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { departments, users } from '../../db/schema';
import { escapeLike } from '../../lib/escape-like';
import { pageTotal } from '../../lib/page-total';

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

export async function setUserDisabled(db: Executor, userId: string, disabled: boolean, at: Date) {
  await db.update(users).set({ disabled, updatedAt: at }).where(eq(users.id, userId));
}

export async function pageTenantUsers(
  db: Executor,
  q: { tenantId: string; keyword?: string; disabled?: boolean; current: number; size: number },
) {
  const conditions: (SQL | undefined)[] = [eq(users.tenantId, q.tenantId)];
  if (q.keyword) {
    const p = escapeLike(q.keyword);
    conditions.push(or(ilike(users.name, p), ilike(users.username, p), ilike(users.phone, p)));
  }
  if (q.disabled !== undefined) conditions.push(eq(users.disabled, q.disabled));
  const where = and(...conditions);
  const records = await db
    .select({
      id: users.id,
      username: users.username,
      name: users.name,
      phone: users.phone,
      departmentName: sql<string>`coalesce(${departments.name}, '')`,
      disabled: users.disabled,
      initPwd: users.initPwd,
      createdAt: users.createdAt,
    })
    .from(users)
    .leftJoin(departments, eq(departments.id, users.departmentId))
    .where(where)
    .orderBy(desc(users.createdAt), users.username)
    .limit(q.size)
    .offset((q.current - 1) * q.size);
  const total = await pageTotal({ offset: (q.current - 1) * q.size, size: q.size, rows: records.length }, async () => {
    const [c] = await db.select({ n: count() }).from(users).where(where);
    return c?.n ?? 0;
  });
  return { records, total };
}
