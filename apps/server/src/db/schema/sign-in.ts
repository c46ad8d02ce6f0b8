import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { tenants, users } from './identity';

// ---------------------------------------------------------------------------------------------------------------
// Sign-in: sessions, attempts, captchas, SMS codes and outbox, QR sign-in
// ---------------------------------------------------------------------------------------------------------------

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** sha256 (hex) of the opaque token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    /** The acting tenant (a system administrator may switch it). */
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    /** The current project, chosen with `web-project/change`. */
    projectId: uuid('project_id'),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [uniqueIndex('sessions_token_hash_uq').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

/**
 * Support access: a tenant's own administrator lets the system administrators see and change its patient
 * data, unmasked, until `expires_at` (1–72 hours) or until revoked. Without an active grant a system administrator
 * switched into the tenant reads patient data masked and cannot change it (`modules/auth/acting-permissions.ts`).
 */
export const supportAccessGrants = pgTable(
  'support_access_grants',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    grantedBy: uuid('granted_by')
      .notNull()
      .references(() => users.id),
    grantedAt: timestamp('granted_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    reason: text('reason'),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: uuid('revoked_by').references(() => users.id),
  },
  (t) => [
    index('support_access_grants_tenant_idx').on(t.tenantId, t.expiresAt),
    check('support_access_grants_window_ck', sql`${t.expiresAt} > ${t.grantedAt}`),
  ],
);

export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    username: text('username').notNull(),
    ip: text('ip'),
    success: boolean('success').notNull(),
    reason: text('reason').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('login_attempts_username_at_idx').on(t.username, t.at),
    // the per-IP throttle counts an address's recent failures
    index('login_attempts_ip_at_idx').on(t.ip, t.at),
  ],
);

export const captchas = pgTable('captchas', {
  key: text('key').primaryKey(),
  answerHash: text('answer_hash').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: createdAt(),
});

export const smsCodes = pgTable(
  'sms_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    phone: text('phone').notNull(),
    codeHash: text('code_hash').notNull(),
    purpose: text('purpose').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('sms_codes_phone_idx').on(t.phone, t.createdAt)],
);

/**
 * Every text message the server sends, written before it goes out. `sent_at` is set when a gateway has handed the
 * message over (modules/auth/sms-provider.ts); the outbox provider of development never sends, so its rows keep it
 * null and are read by operators and tests instead.
 */
export const smsOutbox = pgTable(
  'sms_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    phone: text('phone').notNull(),
    message: text('message').notNull(),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('sms_outbox_phone_idx').on(t.phone, t.createdAt)],
);

export const qrLogins = pgTable(
  'qr_logins',
  {
    key: text('key').primaryKey(),
    state: text('state', { enum: ['pending', 'scanned', 'confirmed', 'expired'] })
      .notNull()
      .default('pending'),
    userId: uuid('user_id').references(() => users.id),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [check('qr_logins_state_ck', sql`${t.state} in ('pending', 'scanned', 'confirmed', 'expired')`)],
);

/**
 * The per-route, per-IP request counters of @fastify/rate-limit (src/plugins/rate-limit-store.ts), shared by every
 * instance on the database: a limit holds whichever instance the requests reach. One row per key and window; rows
 * whose window has passed are deleted by the store itself, so the table holds only the keys of the last window.
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    /** `<method><route>-<ip>`: the route's store prefix and the request's key. */
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    /** When the window ends (the database's clock, the same for every instance). */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limit_hits_expires_idx').on(t.expiresAt)],
);
