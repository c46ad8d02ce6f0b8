import { and, eq, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client';
import {
  formVersions,
  projectMembers,
  projects,
  roles,
  sessions,
  supportAccessGrants,
  tenants,
  users,
} from '../../db/schema';

const homeTenant = alias(tenants, 'home_tenant');
const actingTenant = alias(tenants, 'acting_tenant');

export type SessionRow = {
  sessionId: string;
  userId: string;
  username: string;
  userDisabled: boolean;
  /** The user still has the initial password: only the calls of the 设置密码 dialog are allowed. */
  userInitPwd: boolean;
  homeTenantId: string;
  homeTenantCode: string;
  tenantId: string;
  tenantCode: string;
  tenantName: string;
  tenantType: 'SYSTEM' | 'HOSPITAL' | 'PERSONAL';
  projectId: string | null;
  /** The current project's parent (a sub-project), when the current project exists in the acting tenant. */
  projectParentId: string | null;
  /** Whether the session's current project exists in the acting tenant. */
  projectFound: boolean;
  /** The ids of the latest published versions of the current project and (a sub-project) of its parent, in that order. */
  latestVersionIds: string[] | null;
  tenantRoleCode: string;
  /** The user's tenant role's permissions (the home tenant's own role of that code wins over the built-in). */
  tenantPermissions: string[];
  /** The membership in the current project (else in its parent; a direct one wins); null without one. */
  projectRole: { permissions: string[]; centerId: string | null } | null;
  /** The latest end of the acting tenant's unrevoked support access grants (compared with the clock by the caller). */
  supportUntil: Date | null;
  lastSeenAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
};

/** The session lookup of one executor, built and prepared once (it runs on every request). */
function sessionLookup(db: Executor) {
  const current = alias(projects, 'current_project');
  // The tenant role: the home tenant's own role of the code first, then the built-in one.
  const tenantPermissions = sql<string[] | null>`(
    select ${roles.permissions} from ${roles}
     where ${roles.code} = ${users.tenantRoleCode} and ${roles.scope} = 'tenant' and ${roles.projectId} is null
       and (${roles.tenantId} is null or ${roles.tenantId} = ${homeTenant.id})
     order by ${roles.tenantId} nulls last limit 1)`;
  // The membership: of the current project, else of its parent (a sub-project shares its parent's members).
  const membership = sql`from ${projectMembers} join ${roles} on ${roles.id} = ${projectMembers.roleId}
     where ${projectMembers.tenantId} = ${sessions.tenantId} and ${projectMembers.userId} = ${users.id}
       and (${projectMembers.projectId} = ${current.id} or ${projectMembers.projectId} = ${current.parentId})
     order by (${projectMembers.projectId} = ${current.id}) desc limit 1`;
  return db
    .select({
      sessionId: sessions.id,
      userId: users.id,
      username: users.username,
      userDisabled: users.disabled,
      userInitPwd: users.initPwd,
      homeTenantId: homeTenant.id,
      homeTenantCode: homeTenant.code,
      tenantId: actingTenant.id,
      tenantCode: actingTenant.code,
      tenantName: actingTenant.name,
      tenantType: actingTenant.type,
      projectId: sessions.projectId,
      projectParentId: current.parentId,
      projectFound: sql<boolean>`${current.id} is not null`,
      // The latest published version of the current project, then of its parent (the list's CRF columns need them).
      latestVersionIds: sql<string[] | null>`array(
        select latest.id from (
          select distinct on (${formVersions.projectId}) ${formVersions.id} as id, ${formVersions.projectId} as project_id
            from ${formVersions}
           where ${formVersions.tenantId} = ${sessions.tenantId}
             and ${formVersions.projectId} in (${current.id}, ${current.parentId})
           order by ${formVersions.projectId}, ${formVersions.versionNo} desc) latest
         order by latest.project_id = ${current.id} desc)`,
      tenantRoleCode: users.tenantRoleCode,
      tenantPermissions,
      roleFound: sql<boolean>`exists (select 1 ${membership})`,
      rolePermissions: sql<string[] | null>`(select ${roles.permissions} ${membership})`,
      roleCenterId: sql<string | null>`(select ${projectMembers.centerId} ${membership})`,
      supportUntil: sql<Date | null>`(
        select max(${supportAccessGrants.expiresAt}) from ${supportAccessGrants}
         where ${supportAccessGrants.tenantId} = ${sessions.tenantId} and ${supportAccessGrants.revokedAt} is null)`.mapWith(
        (value: string | Date | null) => (value === null ? null : new Date(value)),
      ),
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      revokedAt: sessions.revokedAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(homeTenant, eq(homeTenant.id, users.tenantId))
    .innerJoin(actingTenant, eq(actingTenant.id, sessions.tenantId))
    .leftJoin(current, and(eq(current.id, sessions.projectId), eq(current.tenantId, sessions.tenantId)))
    .where(eq(sessions.tokenHash, sql.placeholder('tokenHash')))
    .limit(1)
    .prepare('session_by_token_hash');
}
const sessionLookups = new WeakMap<Executor, ReturnType<typeof sessionLookup>>();

/**
 * Everything a request's access check needs, in one round trip: the session with its user and tenants, the tenant
 * role's permissions, the current project (its parent) and the caller's membership role in it.
 */
export async function findSessionByTokenHash(db: Executor, tokenHash: string): Promise<SessionRow | undefined> {
  let lookup = sessionLookups.get(db);
  if (!lookup) {
    lookup = sessionLookup(db);
    sessionLookups.set(db, lookup);
  }
  const row = (await lookup.execute({ tokenHash }))[0];
  if (!row) return undefined;
  const { roleFound, rolePermissions, roleCenterId, ...rest } = row;
  return {
    ...rest,
    tenantPermissions: row.tenantPermissions ?? [],
    projectRole: roleFound ? { permissions: rolePermissions ?? [], centerId: roleCenterId } : null,
  };
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
