import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE } from '@registry/shared/constants';
import {
  notificationPageRequest,
  notificationPageResponse,
  notificationReadRequest,
  unreadCountResponse,
} from '@registry/shared/contracts/notification';
import { requireAuth } from '../../plugins/access';
import { auditContext, NOT_AUDITED } from '../../plugins/audit';
import { ok, okSchema } from '../../plugins/envelope';
import type { NotificationService } from './notification.service';

/** The caller's own in-app notifications (`notification/*`): any signed-in user. */
export function registerNotificationRoutes(root: FastifyInstance, deps: { notifications: NotificationService }): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const base = `${API_BASE}/notification`;
  const { notifications } = deps;

  app.get(
    `${base}/unread-count`,
    { schema: { response: okSchema(unreadCountResponse) }, config: { permission: null } },
    async (request) => ok(await notifications.unreadCount(requireAuth(request))),
  );

  app.post(
    `${base}/page`,
    {
      schema: { body: notificationPageRequest, response: okSchema(notificationPageResponse) },
      config: { permission: null, audit: NOT_AUDITED.read },
    },
    async (request) => ok(await notifications.page(requireAuth(request), request.body)),
  );

  app.post(
    `${base}/read`,
    {
      schema: { body: notificationReadRequest, response: okSchema(unreadCountResponse) },
      config: { permission: null, audit: ['notification.read'] },
    },
    async (request) => ok(await notifications.read(requireAuth(request), request.body, auditContext(request))),
  );
}
