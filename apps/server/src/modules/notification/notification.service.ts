import type { NotificationVO } from '@registry/shared/contracts/notification';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { audit, type AuditContext } from '../../plugins/audit';
import type { AuthContext } from '../auth/session.service';
import { presentNotification } from './notification.presenter';
import {
  countUnread,
  findOwnIds,
  markRead,
  pageNotifications,
  type NotificationOwner,
} from './notification.repository';

export type NotificationService = ReturnType<typeof createNotificationService>;

const NOT_FOUND = '通知不存在';

/**
 * The signed-in user's in-app notifications (`notification/*`). Only the caller's own rows of the acting tenant are
 * read or written; an id of anyone else's notification answers 404 like a missing one.
 */
export function createNotificationService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  const ownerOf = (auth: AuthContext): NotificationOwner => ({ tenantId: auth.tenantId, userId: auth.userId });

  return {
    async unreadCount(auth: AuthContext): Promise<{ count: number }> {
      return { count: await countUnread(db, ownerOf(auth)) };
    },

    async page(auth: AuthContext, q: { current: number; size: number; unreadOnly?: boolean }) {
      const { total, records } = await pageNotifications(db, ownerOf(auth), {
        current: q.current,
        size: q.size,
        unreadOnly: q.unreadOnly === true,
      });
      return {
        records: records.map(presentNotification).filter((n): n is NotificationVO => n !== null),
        total,
        current: q.current,
        size: q.size,
      };
    },

    /** Marks the given notifications (or all) read; 404 when an id is not the caller's. Answers the unread count. */
    async read(
      auth: AuthContext,
      body: { ids?: string[] | undefined; all?: boolean | undefined },
      ctx: AuditContext,
    ): Promise<{ count: number }> {
      const owner = ownerOf(auth);
      const ids = [...new Set(body.ids ?? [])];
      if (!body.all && ids.length === 0)
        throw new AppError(400, '请选择要标记为已读的通知', [{ path: 'ids', message: '请选择要标记为已读的通知' }]);
      if (!body.all) {
        const own = await findOwnIds(db, owner, ids);
        if (own.length !== ids.length) throw new AppError(404, NOT_FOUND);
      }
      const now = clock.now();
      await db.transaction(async (tx) => {
        const marked = await markRead(tx, owner, body.all ? 'all' : ids, now);
        if (marked.length === 0) return;
        await audit(
          tx,
          ctx,
          {
            action: 'notification.read',
            entityType: 'notification',
            entityId: marked.length === 1 ? marked[0] : null,
            newValue: { all: body.all === true, count: marked.length, ids: marked.slice(0, 200) },
          },
          now,
        );
      });
      return { count: await countUnread(db, owner) };
    },
  };
}
