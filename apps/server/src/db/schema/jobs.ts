import { sql } from 'drizzle-orm';
import { check, index, pgTable, primaryKey, text, smallint, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { tenants, users } from './identity';
import { projects } from './projects';

// ---------------------------------------------------------------------------------------------------------------
// Notifications, the users' jobs and idempotency keys
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
 * The jobs a user started (exports, recognition, large imports), beside pg-boss's own `pgboss.job` (ADR 0014): who
 * started it in which tenant (a page may read only its own user's jobs of the session's tenant) and the progress its
 * worker reports (pg-boss 10 keeps none). One row per job id, written in the transaction that enqueues the job; a
 * scheduled job has none. Kept after the job ends so a page polling it still sees 100 %.
 */
export const jobRuns = pgTable(
  'job_runs',
  {
    /** The pg-boss job id. */
    jobId: uuid('job_id').primaryKey(),
    queue: text('queue').notNull(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** 0–100, reported by the worker. */
    progress: smallint('progress').notNull().default(0),
    progressMessage: text('progress_message'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('job_runs_user_idx').on(t.tenantId, t.userId, t.createdAt),
    check('job_runs_progress_range', sql`${t.progress} between 0 and 100`),
  ],
);

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
