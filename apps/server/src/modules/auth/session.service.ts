import { PERMISSIONS } from '@registry/shared/permissions';
import { SYS_TENANT_CODE } from '@registry/shared/constants';
import type { Db, Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { randomToken, sha256Hex } from '../../lib/crypto';
import { actingPermissions } from './acting-permissions';
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
  /** A system administrator acting in another tenant than the system tenant (切换租户). */
  switched: boolean;
  /**
   * Switched only: the end of the acting tenant's active support access (its administrator's grant), else null. While
   * it runs the administrator holds the project owner's codes; without it patient data is masked and read-only.
   */
  supportAccessUntil: Date | null;
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

    const isSysAdmin = row.homeTenantCode === SYS_TENANT_CODE && row.tenantPermissions.includes(PERMISSIONS.sysTenant);
    const switched = isSysAdmin && row.tenantId !== row.homeTenantId;
    const supportAccessUntil =
      switched && row.supportUntil && row.supportUntil.getTime() > now.getTime() ? row.supportUntil : null;
    const { tenantPermissions, projectPermissions, centerId } = actingPermissions({
      tenantPermissions: row.tenantPermissions,
      projectRole: row.projectId ? row.projectRole : null,
      isSysAdmin,
      switched,
      supportAccess: supportAccessUntil !== null,
      inProject: row.projectId !== null,
    });
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
      switched,
      supportAccessUntil,
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
