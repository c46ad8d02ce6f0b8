import { BUILT_IN_ROLES } from '@registry/shared/roles';
import { PERMISSIONS } from '@registry/shared/permissions';
import { SYS_TENANT_CODE } from '@registry/shared/constants';
import type { Db, Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { randomToken, sha256Hex } from '../../lib/crypto';
import {
  findSessionByTokenHash,
  insertSession,
  revokeSession,
  revokeSessionsOfUser,
  setSessionScope,
  touchSession,
} from './session.repository';

/** Who is calling, resolved from the session; tenant and project scope come from here, never from the client. */
export type AuthContext = {
  sessionId: string;
  userId: string;
  username: string;
  /** The user still has the initial password: the access hook refuses every call but the 设置密码 dialog's. */
  initPwd: boolean;
  homeTenantId: string;
  homeTenantCode: string;
  /** The acting tenant of the session. */
  tenantId: string;
  tenantCode: string;
  tenantName: string;
  tenantType: 'SYSTEM' | 'HOSPITAL' | 'PERSONAL';
  projectId: string | null;
  /**
   * The current project as the session found it in the acting tenant (null: none, or not in this tenant), so the
   * project scope needs no query of its own; absent on contexts made without a session lookup.
   */
  currentProject?: {
    id: string;
    parentId: string | null;
    /** The latest published versions of the project and (a sub-project) of its parent, read with the session. */
    latestVersionIds: string[];
  } | null;
  /** The center of the caller's membership in the current project; null = all centers (or no project). */
  centerId: string | null;
  tenantPermissions: string[];
  projectPermissions: string[];
  /** Tenant and current-project codes together: what route permissions are checked against. */
  permissions: string[];
  isSysAdmin: boolean;
};

export type SessionConfig = { sessionIdleMinutes: number; sessionAbsoluteHours: number };

/** last_seen_at is written at most once a minute to keep reads cheap. */
const TOUCH_INTERVAL_MS = 60_000;

export type SessionService = ReturnType<typeof createSessionService>;

export function createSessionService(deps: { db: Db; clock: Clock; config: SessionConfig }) {
  const { db, clock, config } = deps;
  const idleMs = config.sessionIdleMinutes * 60_000;

  async function create(
    tx: Executor,
    input: { userId: string; tenantId: string; ip: string | null; userAgent: string | null },
  ): Promise<{ token: string; sessionId: string; expiresAt: Date }> {
    const token = randomToken(32);
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + config.sessionAbsoluteHours * 3_600_000);
    const { id } = await insertSession(tx, {
      userId: input.userId,
      tokenHash: sha256Hex(token),
      tenantId: input.tenantId,
      createdAt: now,
      expiresAt,
      ip: input.ip,
      userAgent: input.userAgent ? input.userAgent.slice(0, 300) : null,
    });
    return { token, sessionId: id, expiresAt };
  }

  /** The caller of a token, or null when the token is unknown, revoked, idle too long, past its lifetime or the user is disabled. */
  async function resolve(token: string): Promise<AuthContext | null> {
    if (token.length < 20 || token.length > 200) return null;
    const row = await findSessionByTokenHash(db, sha256Hex(token));
    if (!row) return null;
    const now = clock.now();
    if (row.revokedAt || row.userDisabled) return null;
    if (row.expiresAt.getTime() <= now.getTime()) return null;
    if (row.lastSeenAt.getTime() + idleMs <= now.getTime()) return null;
    if (now.getTime() - row.lastSeenAt.getTime() >= TOUCH_INTERVAL_MS) await touchSession(db, row.sessionId, now);

    const { tenantPermissions } = row;
    const isSysAdmin = row.homeTenantCode === SYS_TENANT_CODE && tenantPermissions.includes(PERMISSIONS.sysTenant);
    let projectPermissions: string[] = [];
    let centerId: string | null = null;
    if (row.projectId) {
      const role = row.projectRole;
      if (role) {
        projectPermissions = role.permissions;
        centerId = role.centerId;
      } else if (isSysAdmin) projectPermissions = [...BUILT_IN_ROLES.projectOwner.permissions];
    }
    return {
      sessionId: row.sessionId,
      userId: row.userId,
      username: row.username,
      initPwd: row.userInitPwd,
      homeTenantId: row.homeTenantId,
      homeTenantCode: row.homeTenantCode,
      tenantId: row.tenantId,
      tenantCode: row.tenantCode,
      tenantName: row.tenantName,
      tenantType: row.tenantType,
      projectId: row.projectId,
      currentProject:
        row.projectId && row.projectFound
          ? { id: row.projectId, parentId: row.projectParentId, latestVersionIds: row.latestVersionIds ?? [] }
          : null,
      centerId,
      tenantPermissions,
      projectPermissions,
      permissions: [...new Set([...tenantPermissions, ...projectPermissions])],
      isSysAdmin,
    };
  }

  return {
    create,
    resolve,
    revoke: (tx: Executor, sessionId: string) => revokeSession(tx, sessionId, clock.now()),
    /** Ends every session of a user at once (password change, account disable). */
    revokeUserSessions: (tx: Executor, userId: string) => revokeSessionsOfUser(tx, userId, clock.now()),
    setScope: (tx: Executor, sessionId: string, scope: { tenantId?: string; projectId: string | null }) =>
      setSessionScope(tx, sessionId, scope),
  };
}
