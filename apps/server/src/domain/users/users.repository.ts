import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { departments, organisations, tenants, users } from '../../db/schema';

/** User look-ups several modules make: the signed-in user's profile row, a user of a tenant. */

export type UserRecord = NonNullable<Awaited<ReturnType<typeof findUserById>>>;

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

export async function findTenantUser(db: Executor, tenantId: string, userId: string) {
  const [row] = await db
    .select({ id: users.id, disabled: users.disabled, username: users.username })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)))
    .limit(1);
  return row;
}
