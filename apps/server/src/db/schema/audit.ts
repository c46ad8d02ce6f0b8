import { bigserial, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

// ---------------------------------------------------------------------------------------------------------------
// Audit (append-only: a trigger refuses UPDATE, DELETE and TRUNCATE; hash-chained per tenant by another trigger)
// ---------------------------------------------------------------------------------------------------------------

export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The acting tenant (null only for events before a tenant is known, e.g. a failed sign-in). */
    tenantId: uuid('tenant_id'),
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
    /** Hash of the previous event of the same tenant (null for its first), set by a database trigger. */
    prevHash: text('prev_hash'),
    /** sha256 over prev_hash and this event's fields, set by the trigger: an edited or removed event breaks the chain. */
    hash: text('hash'),
  },
  (t) => [
    uniqueIndex('audit_events_hash_uq').on(t.hash),
    index('audit_events_tenant_at_idx').on(t.tenantId, t.at),
    index('audit_events_entity_idx').on(t.entityType, t.entityId),
  ],
);
