import { and, count, desc, eq, inArray, isNull, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { notifications, projects, users } from '../../db/schema';
import { pageTotal } from '../../lib/page-total';

/** Whose notifications: always the caller's own (tenant and user from the session). */
export type NotificationOwner = { tenantId: string; userId: string };

const ownerCondition = (o: NotificationOwner): SQL | undefined =>
  and(eq(notifications.tenantId, o.tenantId), eq(notifications.userId, o.userId));

/** Inserts notifications; one already sent to a user about the same thing is skipped. Answers how many are new. */
export async function insertNotifications(
  tx: Executor,
  rows: readonly (typeof notifications.$inferInsert)[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const inserted = await tx
    .insert(notifications)
    .values([...rows])
    .onConflictDoNothing({ target: [notifications.userId, notifications.kind, notifications.entityId] })
    .returning({ id: notifications.id });
  return inserted.length;
}

export async function findUserPhones(tx: Executor, userIds: readonly string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await tx
    .select({ id: users.id, phone: users.phone })
    .from(users)
    .where(and(inArray(users.id, [...userIds]), eq(users.disabled, false)));
  return new Map(rows.filter((r) => r.phone).map((r) => [r.id, r.phone as string]));
}

export async function countUnread(db: Executor, owner: NotificationOwner): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(ownerCondition(owner), isNull(notifications.readAt)));
  return row?.n ?? 0;
}

export async function pageNotifications(
  db: Executor,
  owner: NotificationOwner,
  q: { current: number; size: number; unreadOnly: boolean },
) {
  const where = and(ownerCondition(owner), q.unreadOnly ? isNull(notifications.readAt) : undefined);
  const records = await db
    .select({
      id: notifications.id,
      kind: notifications.kind,
      title: notifications.title,
      body: notifications.body,
      link: notifications.link,
      projectId: notifications.projectId,
      projectName: projects.name,
      readAt: notifications.readAt,
      createdAt: notifications.createdAt,
    })
    .from(notifications)
    .leftJoin(projects, eq(projects.id, notifications.projectId))
    .where(where)
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(q.size)
    .offset((q.current - 1) * q.size);
  const total = await pageTotal({ offset: (q.current - 1) * q.size, size: q.size, rows: records.length }, async () => {
    const [c] = await db.select({ n: count() }).from(notifications).where(where);
    return c?.n ?? 0;
  });
  return { total, records };
}

/** The caller's notifications among `ids` (the others are someone else's or missing). */
export async function findOwnIds(db: Executor, owner: NotificationOwner, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: notifications.id })
    .from(notifications)
    .where(and(ownerCondition(owner), inArray(notifications.id, [...ids])));
  return rows.map((r) => r.id);
}

/** Marks the caller's unread notifications (all, or those of `ids`) read; answers the ids it marked. */
export async function markRead(tx: Executor, owner: NotificationOwner, ids: readonly string[] | 'all', at: Date) {
  const rows = await tx
    .update(notifications)
    .set({ readAt: at })
    .where(
      and(
        ownerCondition(owner),
        isNull(notifications.readAt),
        ids === 'all' ? undefined : inArray(notifications.id, [...ids]),
      ),
    )
    .returning({ id: notifications.id });
  return rows.map((r) => r.id);
}
