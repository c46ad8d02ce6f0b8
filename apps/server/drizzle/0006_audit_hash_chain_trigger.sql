-- Hash chain of the audit trail, one chain per tenant. A trigger sets prev_hash (the tenant's chain head) and hash
-- (sha256 over prev_hash and the event's fields) on every insert. The head lives in audit_chain_heads; locking its row
-- orders concurrent inserts of a tenant, so the chain never forks. An edited event no longer matches its hash; a
-- removed one breaks the links. Verification: src/plugins/audit-chain.ts.
CREATE TABLE audit_chain_heads (
  tenant_key text PRIMARY KEY,
  hash text NOT NULL
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION audit_event_hash(
  prev_hash text, id bigint, tenant_id uuid, actor_id uuid, at timestamptz, action text, entity_type text,
  entity_id text, old_value jsonb, new_value jsonb, reason text, request_id text, ip text
) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT encode(sha256(convert_to(jsonb_build_array(
    prev_hash, id, tenant_id, actor_id, (extract(epoch FROM at) * 1000000)::bigint, action, entity_type, entity_id,
    old_value, new_value, reason, request_id, ip
  )::text, 'UTF8')), 'hex')
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION audit_events_chain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  k text := coalesce(NEW.tenant_id::text, '-');
  head text;
BEGIN
  INSERT INTO audit_chain_heads (tenant_key, hash) VALUES (k, '') ON CONFLICT (tenant_key) DO NOTHING;
  SELECT h.hash INTO head FROM audit_chain_heads h WHERE h.tenant_key = k FOR UPDATE;
  NEW.prev_hash := nullif(head, '');
  NEW.hash := audit_event_hash(NEW.prev_hash, NEW.id, NEW.tenant_id, NEW.actor_id, NEW.at, NEW.action,
    NEW.entity_type, NEW.entity_id, NEW.old_value, NEW.new_value, NEW.reason, NEW.request_id, NEW.ip);
  UPDATE audit_chain_heads SET hash = NEW.hash WHERE tenant_key = k;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER audit_events_chain BEFORE INSERT ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_chain();
