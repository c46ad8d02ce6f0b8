import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { roles, tenants, users } from './identity';
import { centers, projects } from './projects';

// ---------------------------------------------------------------------------------------------------------------
// Join requests: a tenant user asks to join a project; its owner (or a permission.manage holder) decides
// ---------------------------------------------------------------------------------------------------------------

export const joinRequests = pgTable(
  'join_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    message: text('message'),
    status: text('status', { enum: ['pending', 'approved', 'refused'] })
      .notNull()
      .default('pending'),
    reason: text('reason'),
    roleId: uuid('role_id').references(() => roles.id),
    centerId: uuid('center_id').references(() => centers.id),
    decidedBy: uuid('decided_by').references(() => users.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    /** One pending request per user and project. */
    uniqueIndex('join_requests_pending_uq')
      .on(t.tenantId, t.projectId, t.userId)
      .where(sql`${t.status} = 'pending'`),
    index('join_requests_tenant_project_idx').on(t.tenantId, t.projectId, t.createdAt),
    index('join_requests_user_idx').on(t.userId, t.createdAt),
    check('join_requests_status_ck', sql`${t.status} in ('pending', 'approved', 'refused')`),
  ],
);
