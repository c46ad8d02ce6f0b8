import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  smallint,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { tenants, users } from './identity';
import { projects } from './projects';

// ---------------------------------------------------------------------------------------------------------------
// Notifications and durable scheduled jobs (follow-up reminders)
// ---------------------------------------------------------------------------------------------------------------

/** An in-app notification of one user. `(user_id, kind, entity_id)` is unique: a reminder is never sent twice. */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    projectId: uuid('project_id').references(() => projects.id),
    kind: text('kind').notNull(),
    /** The thing notified about (a follow-up task). */
    entityId: uuid('entity_id'),
    title: text('title').notNull(),
    body: text('body').notNull(),
    link: text('link'),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('notifications_user_kind_entity_uq').on(t.userId, t.kind, t.entityId),
    index('notifications_user_unread_idx')
      .on(t.userId, t.createdAt)
      .where(sql`${t.readAt} is null`),
    index('notifications_user_created_idx').on(t.userId, t.createdAt),
  ],
);

/**
 * Durable scheduled jobs: one row per job. A process runs a job only after claiming its lease (`locked_until`) with a
 * conditional UPDATE, so two server processes never run it at once; `next_run_at` survives restarts.
 */
export const scheduledJobs = pgTable('scheduled_jobs', {
  name: text('name').primaryKey(),
  nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  lockedBy: text('locked_by'),
  lastStartedAt: timestamp('last_started_at', { withTimezone: true }),
  lastFinishedAt: timestamp('last_finished_at', { withTimezone: true }),
  lastError: text('last_error'),
  runCount: integer('run_count').notNull().default(0),
});

/**
 * Idempotency keys of signed-in write requests (`Idempotency-Key`, ADR 0011): the first request with a key reserves
 * the row (`status_code` null while it runs, `locked_until` its lease), and its answer is stored when it is sent; a
 * repeat with the same key gets the stored answer. Scoped to the user (the primary key), so no one can replay
 * another's. `request_hash` is SHA-256 over the method, the whole URL and the body (a repeat must match it); `route`
 * is the route's pattern only (ids and query values may carry PHI). The answer is encrypted like PHI (`response`,
 * phi-crypto: it may carry a patient's identity number). Rows expire after 24 hours: deleted by the
 * `idempotency-cleanup` job, and an expired key met again is simply reused.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** The acting tenant of the session that made the request. */
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    method: text('method').notNull(),
    route: text('route').notNull(),
    requestHash: text('request_hash').notNull(),
    /** The stored answer's HTTP status; null while the first request still runs. */
    statusCode: smallint('status_code'),
    contentType: text('content_type'),
    /** The stored answer's body, encrypted (`encryptPhi`). */
    response: text('response'),
    createdAt: createdAt(),
    /** Until when a request still running holds the key; past it, a repeat may take the key over (a crashed run). */
    lockedUntil: timestamp('locked_until', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.key] }),
    index('idempotency_keys_expires_idx').on(t.expiresAt),
    check('idempotency_keys_key_len', sql`char_length(${t.key}) between 1 and 255`),
  ],
);
