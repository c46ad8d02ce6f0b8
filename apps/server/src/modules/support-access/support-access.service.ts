import type {
  SupportAccessCreateRequest,
  SupportAccessGrantVO,
  SupportAccessListResponse,
} from '@registry/shared/contracts/support-access';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError, ERROR_MESSAGES } from '../../lib/errors';
import { audit, type AuditContext } from '../../plugins/audit';
import type { AuthContext } from '../auth/session.service';
import {
  findGrantForUpdate,
  insertGrant,
  listGrants,
  revokeGrant,
  type SupportGrantRow,
} from './support-access.repository';

const MESSAGES = {
  notFound: '授权不存在',
  ended: '该授权已结束',
} as const;

const LIST_LIMIT = 100;

export type SupportAccessService = ReturnType<typeof createSupportAccessService>;

/**
 * The tenant administrator's side of support access: grant (1–72 hours), list, revoke. The session lookup reads the
 * grants (`auth/session.repository.ts`); `auth/acting-permissions.ts` turns an active one into the project owner's codes
 * for a switched system administrator.
 */
export function createSupportAccessService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  const present = (row: SupportGrantRow, now: Date): SupportAccessGrantVO => ({
    id: row.id,
    grantedByName: row.grantedByName,
    grantedAt: row.grantedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    reason: row.reason,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    revokedByName: row.revokedByName,
    active: row.revokedAt === null && row.expiresAt.getTime() > now.getTime(),
  });

  /** Only the tenant's own administrator, in its own tenant (a switched system administrator never grants itself). */
  const ownTenant = (auth: AuthContext) => {
    if (auth.switched || auth.tenantId !== auth.homeTenantId) throw new AppError(403, ERROR_MESSAGES.forbidden);
  };

  async function list(auth: AuthContext): Promise<SupportAccessListResponse> {
    ownTenant(auth);
    const now = clock.now();
    const grants = (await listGrants(db, auth.tenantId, LIST_LIMIT)).map((row) => present(row, now));
    const ends = grants.filter((g) => g.active).map((g) => g.expiresAt);
    return { activeUntil: ends.length > 0 ? ends.sort().at(-1)! : null, grants };
  }

  async function create(auth: AuthContext, body: SupportAccessCreateRequest, ctx: AuditContext) {
    ownTenant(auth);
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + body.hours * 3_600_000);
    const reason = body.reason ? body.reason : null;
    await db.transaction(async (tx) => {
      const { id } = await insertGrant(tx, {
        tenantId: auth.tenantId,
        grantedBy: auth.userId,
        grantedAt: now,
        expiresAt,
        reason,
      });
      await audit(
        tx,
        ctx,
        {
          action: 'support.grant',
          entityType: 'support_access_grant',
          entityId: id,
          newValue: { hours: body.hours, expiresAt: expiresAt.toISOString(), reason },
        },
        now,
      );
    });
    return list(auth);
  }

  async function revoke(auth: AuthContext, id: string, ctx: AuditContext) {
    ownTenant(auth);
    const now = clock.now();
    await db.transaction(async (tx) => {
      const grant = await findGrantForUpdate(tx, auth.tenantId, id);
      if (!grant) throw new AppError(404, MESSAGES.notFound);
      if (grant.revokedAt || grant.expiresAt.getTime() <= now.getTime()) throw new AppError(409, MESSAGES.ended);
      await revokeGrant(tx, id, auth.userId, now);
      await audit(
        tx,
        ctx,
        {
          action: 'support.revoke',
          entityType: 'support_access_grant',
          entityId: id,
          oldValue: { expiresAt: grant.expiresAt.toISOString() },
          newValue: { revokedAt: now.toISOString() },
        },
        now,
      );
    });
    return list(auth);
  }

  return { list, create, revoke };
}
