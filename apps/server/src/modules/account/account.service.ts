import type { ChangePasswordRequest, UpdateUserRequest, UserInfo } from '@registry/shared/contracts/user';
import { MESSAGES } from '@registry/shared/constants';
import { passwordProblem } from '@registry/shared/password-policy';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError, ERROR_MESSAGES } from '../../lib/errors';
import { hashPassword, verifyPassword } from '../../lib/password';
import { audit, type AuditContext } from '../../plugins/audit';
import type { AuthContext, SessionService } from '../auth/session.service';
import { fileIdFromReference } from '../file/file.presenter';
import { presentUserInfo } from './account.presenter';
import { findOwnFile, updateUserPassword, updateUserProfile } from './account.repository';
import { findUserById } from '../../domain/users/users.repository';

const AVATAR_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/bmp', 'image/webp']);

export type AccountService = ReturnType<typeof createAccountService>;

export function createAccountService(deps: { db: Db; clock: Clock; sessions: SessionService }) {
  const { db, clock } = deps;

  async function load(userId: string) {
    const user = await findUserById(db, userId);
    if (!user) throw new AppError(404, ERROR_MESSAGES.userNotFound);
    return user;
  }

  return {
    async userInfo(auth: AuthContext): Promise<UserInfo> {
      return presentUserInfo(await load(auth.userId), auth);
    },

    /** The caller's own name and avatar. Only a PERSONAL user may change the avatar (seed §1). */
    async updateSelf(auth: AuthContext, input: UpdateUserRequest, ctx: AuditContext): Promise<UserInfo> {
      if (input.id !== undefined && input.id !== auth.userId) throw new AppError(404, ERROR_MESSAGES.userNotFound);
      const user = await load(auth.userId);
      const set: { name?: string; avatar?: string | null } = {};
      if (input.name !== undefined && input.name !== user.name) set.name = input.name;
      if (input.avatar !== undefined) {
        let next: string | null = null;
        if (input.avatar !== null && input.avatar.trim() !== '') {
          const fileId = fileIdFromReference(input.avatar);
          const file = fileId ? await findOwnFile(db, fileId, auth.userId) : undefined;
          if (!file || !AVATAR_TYPES.has(file.contentType)) throw new AppError(400, ERROR_MESSAGES.avatarInvalid);
          next = file.id;
        }
        if (next !== user.avatar) {
          if (user.tenantType !== 'PERSONAL') throw new AppError(403, ERROR_MESSAGES.forbidden);
          set.avatar = next;
        }
      }
      if (Object.keys(set).length > 0) {
        const now = clock.now();
        await db.transaction(async (tx) => {
          await updateUserProfile(tx, user.id, { ...set, updatedAt: now });
          const oldValue: Record<string, unknown> = {};
          for (const k of Object.keys(set) as (keyof typeof set)[]) oldValue[k] = user[k];
          await audit(
            tx,
            ctx,
            { action: 'user.update', entityType: 'user', entityId: user.id, oldValue, newValue: set },
            now,
          );
        });
      }
      return presentUserInfo(await load(auth.userId), auth);
    },

    /** Sets or changes the caller's password, clears initPwd and ends every session of the user (this one too). */
    async changePassword(auth: AuthContext, input: ChangePasswordRequest, ctx: AuditContext): Promise<string> {
      const user = await load(auth.userId);
      if (!user.initPwd) {
        if (!input.password) throw new AppError(400, ERROR_MESSAGES.oldPasswordRequired);
        if (!(await verifyPassword(user.passwordHash, input.password)))
          throw new AppError(400, ERROR_MESSAGES.wrongOldPassword);
      }
      const problem = passwordProblem(input.newPassword, auth.username);
      if (problem) throw new AppError(400, problem, [{ path: 'newPassword', message: problem }]);
      if (await verifyPassword(user.passwordHash, input.newPassword))
        throw new AppError(400, ERROR_MESSAGES.samePassword);
      const hashed = await hashPassword(input.newPassword);
      const now = clock.now();
      await db.transaction(async (tx) => {
        await updateUserPassword(tx, user.id, hashed, now);
        const revoked = await deps.sessions.revokeUserSessions(tx, user.id);
        await audit(
          tx,
          ctx,
          {
            action: user.initPwd ? 'user.password.set' : 'user.password.change',
            entityType: 'user',
            entityId: user.id,
            oldValue: { initPwd: user.initPwd },
            newValue: { initPwd: false, sessionsRevoked: revoked },
          },
          now,
        );
      });
      return user.initPwd ? MESSAGES.passwordSetSuccess : MESSAGES.passwordChangeSuccess;
    },
  };
}
