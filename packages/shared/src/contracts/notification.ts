import { z } from 'zod';
import { page, pageRequest } from './envelope';

/**
 * In-app notifications of the signed-in user (follow-up reminders; later issues add kinds). Base
 * `notification`; any signed-in user, own notifications only (another user's id answers 404 like a missing one).
 */
export const NOTIFICATION_KINDS = ['followup_due', 'query_raised', 'query_answered', 'query_closed'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const notificationVO = z.object({
  id: z.string(),
  kind: z.enum(NOTIFICATION_KINDS),
  title: z.string(),
  body: z.string(),
  /** An app path to open (e.g. `/followup/edit?id=…`), or null. */
  link: z.string().nullable(),
  projectId: z.string().nullable(),
  projectName: z.string().nullable(),
  readAt: z.string().nullable(),
  createdAt: z.string(),
});
export type NotificationVO = z.infer<typeof notificationVO>;

/** `GET notification/unread-count`: the header badge. */
export const unreadCountResponse = z.object({ count: z.number().int() });

/** `POST notification/page`: newest first. */
export const notificationPageRequest = pageRequest.extend({ unreadOnly: z.boolean().optional() });
export const notificationPageResponse = page(notificationVO);

/** `POST notification/read`: mark the given ones, or all (`all: true`), as read; answers the new unread count. */
export const notificationReadRequest = z.object({
  ids: z.array(z.guid('通知不存在')).max(200).optional(),
  all: z.boolean().optional(),
});
