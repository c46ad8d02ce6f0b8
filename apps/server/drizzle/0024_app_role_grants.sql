-- Custom SQL migration file, put your code below! --
-- The application's database role (ADR 0015): the server connects as a role that owns no table and is not a
-- superuser, so it cannot switch the audit trail's append-only trigger off (ALTER TABLE … DISABLE TRIGGER needs the
-- owner, SET session_replication_role a superuser) nor change or remove audit rows. The migrations run as the owner;
-- after every migration run the runner (src/db/migrate.ts) calls this function with the app role's name, so tables
-- added by later migrations get their grants too. Idempotent: every table's grants are rebuilt from nothing.
CREATE OR REPLACE FUNCTION registry_grant_app_role(app_role name) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  -- append-only tables: the app may read and add, never change, remove or empty (those missing are skipped)
  append_only constant name[] := ARRAY['audit_events', 'audit_seals', 'audit_seal_heads']::name[];
  role_row record;
  rel record;
BEGIN
  SELECT rolname, rolsuper, rolbypassrls INTO role_row FROM pg_roles WHERE rolname = app_role;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'app database role "%" does not exist', app_role USING ERRCODE = 'undefined_object';
  END IF;
  IF app_role = current_user THEN
    RAISE EXCEPTION 'app database role "%" is the migrations'' owner role', app_role
      USING ERRCODE = 'invalid_grant_operation';
  END IF;
  IF role_row.rolsuper OR role_row.rolbypassrls THEN
    RAISE EXCEPTION 'app database role "%" is a superuser or bypasses row security', app_role
      USING ERRCODE = 'invalid_grant_operation';
  END IF;
  IF EXISTS (
    SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relowner = (SELECT oid FROM pg_roles WHERE rolname = app_role)
  ) THEN
    RAISE EXCEPTION 'app database role "%" owns objects of schema public', app_role
      USING ERRCODE = 'invalid_grant_operation';
  END IF;

  EXECUTE format('GRANT USAGE ON SCHEMA public TO %I', app_role);
  FOR rel IN
    SELECT c.oid::regclass AS name, c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'S')
  LOOP
    -- from nothing: no TRUNCATE, REFERENCES or TRIGGER, whatever an earlier run or a DBA granted
    EXECUTE format('REVOKE ALL ON %s FROM %I', rel.name, app_role);
    IF rel.relkind = 'S' THEN
      EXECUTE format('GRANT USAGE ON SEQUENCE %s TO %I', rel.name, app_role);
    ELSIF rel.relname = ANY (append_only) THEN
      EXECUTE format('GRANT SELECT, INSERT ON TABLE %s TO %I', rel.name, app_role);
    ELSE
      EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON TABLE %s TO %I', rel.name, app_role);
    END IF;
  END LOOP;
END;
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION registry_grant_app_role(name) FROM PUBLIC;
