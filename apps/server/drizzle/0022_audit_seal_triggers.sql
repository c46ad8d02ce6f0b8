-- Custom SQL migration file, put your code below! --
-- The audit trail is sealed after commit (ADR 0013): the insert trigger of 0006, which locked the tenant's chain head
-- until commit and so made every audited transaction of a tenant wait for the one before it, goes, with its unkeyed
-- hash function and the head table. Events keep their legacy prev_hash/hash values; the seals cover every event.
DROP TRIGGER IF EXISTS audit_events_chain ON audit_events;
--> statement-breakpoint
DROP FUNCTION IF EXISTS audit_events_chain();
--> statement-breakpoint
DROP FUNCTION IF EXISTS audit_event_hash(text, bigint, uuid, uuid, timestamptz, text, text, text, jsonb, jsonb, text, text, text);
--> statement-breakpoint
DROP TABLE IF EXISTS audit_chain_heads;
--> statement-breakpoint
-- The seals and the signed heads are append-only like audit_events (0004): UPDATE, DELETE and TRUNCATE are refused.
CREATE OR REPLACE FUNCTION audit_seal_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER audit_seals_no_update_delete BEFORE UPDATE OR DELETE ON audit_seals
  FOR EACH ROW EXECUTE FUNCTION audit_seal_append_only();
--> statement-breakpoint
CREATE TRIGGER audit_seals_no_truncate BEFORE TRUNCATE ON audit_seals
  FOR EACH STATEMENT EXECUTE FUNCTION audit_seal_append_only();
--> statement-breakpoint
CREATE TRIGGER audit_seal_heads_no_update_delete BEFORE UPDATE OR DELETE ON audit_seal_heads
  FOR EACH ROW EXECUTE FUNCTION audit_seal_append_only();
--> statement-breakpoint
CREATE TRIGGER audit_seal_heads_no_truncate BEFORE TRUNCATE ON audit_seal_heads
  FOR EACH STATEMENT EXECUTE FUNCTION audit_seal_append_only();
