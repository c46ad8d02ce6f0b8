import { and, eq, isNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client';
import { projectMembers, projects, roles, sessions, tenants, users } from '../../db/schema';

const homeTenant = alias(tenants, 'home_tenant');
const actingTenant = alias(tenants, 'acting_tenant');

export type SessionRow = {
  sessionId: string;
  userId: string;
  username: string;
  userDisabled: boolean;
  homeTenantId: string;
  homeTenantCode: string;
  tenantId: string;
  tenantCode: string;
  tenantName: string;
  tenantType: 'SYSTEM' | 'HOSPITAL' | 'PERSONAL';
  projectId: string | null;
  tenantRoleCode: string;
  lastSeenAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
};

export async function findSessionByTokenHash(db: Executor, tokenHash: string): Promise<SessionRow | undefined> {
  const rows = await db
    .select({
      sessionId: sessions.id,
      userId: users.id,
      username: users.username,
      userDisabled: users.disabled,
      homeTenantId: homeTenant.id,
      homeTenantCode: homeTenant.code,
      tenantId: actingTenant.id,
      tenantCode: actingTenant.code,
      tenantName: actingTenant.name,
      tenantType: actingTenant.type,
      projectId: sessions.projectId,
      tenantRoleCode: users.tenantRoleCode,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      revokedAt: sessions.revokedAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(homeTenant, eq(homeTenant.id, users.tenantId))
    .innerJoin(actingTenant, eq(actingTenant.id, sessions.tenantId))
    .where(eq(sessions.tokenHash, tokenHash))
    .limit(1);
  return rows[0];
}

export async function insertSession(
  db: Executor,
  row: {
    userId: string;
    tokenHash: string;
    tenantId: string;
    createdAt: Date;
    expiresAt: Date;
    ip: string | null;
    userAgent: string | null;
  },
): Promise<{ id: string }> {
  const [created] = await db
    .insert(sessions)
    .values({ ...row, lastSeenAt: row.createdAt })
    .returning({ id: sessions.id });
  if (!created) throw new Error('session insert returned no row');
  return created;
}

export async function touchSession(db: Executor, sessionId: string, at: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: at }).where(eq(sessions.id, sessionId));
}

export async function revokeSession(db: Executor, sessionId: string, at: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: at })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

export async function revokeSessionsOfUser(db: Executor, userId: string, at: Date): Promise<number> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: at })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.length;
}

export async function setSessionScope(
  db: Executor,
  sessionId: string,
  scope: { tenantId?: string; projectId: string | null },
): Promise<void> {
  await db.update(sessions).set(scope).where(eq(sessions.id, sessionId));
}

/** The permission codes of a tenant-level role code (a tenant's own role of that code wins over the built-in). */
export async function findTenantRolePermissions(db: Executor, tenantId: string, roleCode: string): Promise<string[]> {
  const rows = await db
    .select({ permissions: roles.permissions, tenantId: roles.tenantId })
    .from(roles)
    .where(
      and(
        eq(roles.code, roleCode),
        eq(roles.scope, 'tenant'),
        isNull(roles.projectId),
        or(isNull(roles.tenantId), eq(roles.tenantId, tenantId)),
      ),
    );
  const own = rows.find((r) => r.tenantId !== null);
  return (own ?? rows[0])?.permissions ?? [];
}

/**
 * The caller's membership role in a project of the tenant: a direct membership, else the membership of the parent
 * project (a sub-project shares its parent's members).
 */
export async function findProjectRole(
  db: Executor,
  tenantId: string,
  projectId: string,
  userId: string,
): Promise<{ name: string; permissions: string[]; centerId: string | null } | undefined> {
  const rows = await db
    .select({
      name: roles.name,
      permissions: roles.permissions,
      centerId: projectMembers.centerId,
      direct: sql<boolean>`${projectMembers.projectId} = ${projectId}`,
    })
    .from(projectMembers)
    .innerJoin(roles, eq(roles.id, projectMembers.roleId))
    .innerJoin(projects, eq(projects.id, projectId))
    .where(
      and(
        eq(projectMembers.tenantId, tenantId),
        eq(projects.tenantId, tenantId),
        eq(projectMembers.userId, userId),
        or(eq(projectMembers.projectId, projects.id), eq(projectMembers.projectId, projects.parentId)),
      ),
    );
  const direct = rows.find((r) => r.direct);
  const chosen = direct ?? rows[0];
  return chosen ? { name: chosen.name, permissions: chosen.permissions, centerId: chosen.centerId } : undefined;
}
