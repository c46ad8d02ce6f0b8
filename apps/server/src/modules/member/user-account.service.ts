import type { TenantUserPageRequest, TenantUserVO } from '@registry/shared/contracts/user';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError, ERROR_MESSAGES } from '../../lib/errors';
import { audit, type AuditContext } from '../../plugins/audit';
import type { AuthContext, SessionService } from '../auth/session.service';
import { MANAGE_MESSAGES as M } from '../../domain/messages/project-messages';
import { isUuid } from '../../domain/scope/project-scope';
import { pageTenantUsers, setUserDisabled } from './user-account.repository';
import { findTenantUser } from '../../domain/users/users.repository';

export type UserAccountService = ReturnType<typeof createUserAccountService>;

/** The acting tenant's accounts (`user.manage`). */
export function createUserAccountService(deps: { db: Db; clock: Clock; sessions: SessionService }) {
  const { db, clock, sessions } = deps;

  return {
    async page(auth: AuthContext, input: TenantUserPageRequest) {
      const { records, total } = await pageTenantUsers(db, {
        tenantId: auth.tenantId,
        ...(input.keyword ? { keyword: input.keyword } : {}),
        ...(input.disabled !== undefined ? { disabled: input.disabled } : {}),
        current: input.current,
        size: input.size,
      });
      const presented: TenantUserVO[] = records.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
      return { records: presented, total, current: input.current, size: input.size };
    },

    /** Disabling ends every session of the user in the same transaction: their token gets 401 at once. */
    async setDisabled(auth: AuthContext, userId: string, disabled: boolean, ctx: AuditContext): Promise<null> {
      const user = isUuid(userId) ? await findTenantUser(db, auth.tenantId, userId) : undefined;
      if (!user) throw new AppError(404, ERROR_MESSAGES.userNotFound);
      if (disabled && user.id === auth.userId) throw new AppError(409, M.selfDisable);
      if (user.disabled === disabled) return null;
      const now = clock.now();
      await db.transaction(async (tx) => {
        await setUserDisabled(tx, user.id, disabled, now);
        const revoked = disabled ? await sessions.revokeUserSessions(tx, user.id) : 0;
        await audit(
          tx,
          ctx,
          {
            action: disabled ? 'user.disable' : 'user.enable',
            entityType: 'user',
            entityId: user.id,
            oldValue: { disabled: !disabled },
            newValue: { disabled, revokedSessions: revoked },
          },
          now,
        );
      });
      return null;
    },
  };
}
