import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  customType,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * PostgreSQL's 64-bit transaction id (`xid8`, PostgreSQL 13+), read and written as its decimal text: it never wraps
 * around, so it orders the transactions of the cluster's whole life.
 */
const xid8 = customType<{ data: string; driverData: string }>({
  dataType: () => 'xid8',
});

// ---------------------------------------------------------------------------------------------------------------
// Audit (append-only: triggers refuse UPDATE, DELETE and TRUNCATE of all three tables). An event is inserted in the
// transaction of its change; the sealer (modules/audit/audit-seal.service.ts) seals it after commit — ADR 0013.
// ---------------------------------------------------------------------------------------------------------------

export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The acting tenant (null only for events before a tenant is known, e.g. a failed sign-in). */
    tenantId: uuid('tenant_id'),
    /** The session's current project when the event was written (null: none), or the project a decision is about. */
    projectId: uuid('project_id'),
    actorId: uuid('actor_id'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id'),
    oldValue: jsonb('old_value'),
    newValue: jsonb('new_value'),
    reason: text('reason'),
    requestId: text('request_id'),
    ip: text('ip'),
    /**
     * The inserting (top-level) transaction: the sealer seals an event only once every transaction below its
     * snapshot's xmin has ended, in (tx_id, id) order, so an event that commits late is never skipped.
     */
    txId: xid8('tx_id')
      .notNull()
      .default(sql`pg_current_xact_id()`),
    /** Legacy: the unkeyed hash chain of migration 0006, written until the seals replaced it (no longer set). */
    prevHash: text('prev_hash'),
    /** Legacy: see prevHash. */
    hash: text('hash'),
  },
  (t) => [
    uniqueIndex('audit_events_hash_uq').on(t.hash),
    index('audit_events_tenant_at_idx').on(t.tenantId, t.at),
    index('audit_events_entity_idx').on(t.entityType, t.entityId),
    // the project audit view: a project's events, newest first
    index('audit_events_tenant_project_id_idx').on(t.tenantId, t.projectId, t.id),
    // the sealer: the events after the last sealed one, in sealing order
    index('audit_events_tx_id_idx').on(t.txId, t.id),
  ],
);

/**
 * One seal per audit event, in the order the sealer sealed them: per tenant chain (`tenant_key`: the tenant id, '-'
 * for tenant-less events) a gapless `seq`, and `mac` = HMAC-SHA256 with AUDIT_SEAL_KEY over the previous seal's mac
 * and the event's canonical serialisation (modules/audit/audit-seal-mac.ts). The database never holds the key.
 */
export const auditSeals = pgTable(
  'audit_seals',
  {
    eventId: bigint('event_id', { mode: 'number' }).primaryKey(),
    /** The event's tx_id, so the sealer finds where it stopped without reading the events it sealed. */
    txId: xid8('tx_id').notNull(),
    tenantKey: text('tenant_key').notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    /** The mac of seal seq - 1 of the chain; null for seq 1. */
    prevMac: text('prev_mac'),
    mac: text('mac').notNull(),
    sealedAt: timestamp('sealed_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('audit_seals_tenant_seq_uq').on(t.tenantKey, t.seq),
    index('audit_seals_tx_id_idx').on(t.txId, t.eventId),
  ],
);

/**
 * The signed head of a chain after each seal batch that touched it: signature = HMAC-SHA256 with the key over
 * `tenant_key|seq|mac|signed_at`. The newest head is also written outside the database (the head store), which is
 * what shows a removed tail.
 */
export const auditSealHeads = pgTable(
  'audit_seal_heads',
  {
    tenantKey: text('tenant_key').notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    mac: text('mac').notNull(),
    signedAt: timestamp('signed_at', { withTimezone: true }).notNull(),
    signature: text('signature').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantKey, t.seq] })],
);
