import { and, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { departments, users } from '../../db/schema';
import { escapeLike } from '../../lib/escape-like';
import { pageTotal } from '../../lib/page-total';

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
