import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/db';
import { TEST_APP_ROLE } from '../../test/pg-admin';

/**
 * The app's database role (ADR 0015): every server test runs the app as this role, so the suite proves its grants
 * suffice; these prove what it may not do — switch the audit trail's protection off, or change its rows.
 */
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const INSUFFICIENT_PRIVILEGE = '42501';

async function refused(statement: string): Promise<{ code?: string; message: string }> {
  const err = await database.pool.query(statement).then(
    () => undefined,
    (e: unknown) => e as { code?: string; message: string },
  );
  if (!err) throw new Error(`the app role was allowed: ${statement}`);
  return err;
}

describe('the app database role', () => {
  it('should be a login role that is not a superuser and owns no table', async () => {
    const { rows } = await database.pool.query<{ role: string; superuser: boolean; owned: number }>(
      `SELECT current_user AS role, r.rolsuper AS superuser,
              (SELECT count(*)::int FROM pg_class c WHERE c.relowner = r.oid) AS owned
         FROM pg_roles r WHERE r.rolname = current_user`,
    );
    expect(rows[0]).toEqual({ role: TEST_APP_ROLE, superuser: false, owned: 0 });
  });

  it('should not be able to switch the append-only trigger off, by replication role or by ALTER TABLE', async () => {
    expect((await refused('SET session_replication_role = replica')).code).toBe(INSUFFICIENT_PRIVILEGE);
    const alter = await refused('ALTER TABLE audit_events DISABLE TRIGGER ALL');
    expect(alter.code).toBe(INSUFFICIENT_PRIVILEGE);
    expect(alter.message).toMatch(/must be owner/);
    expect((await refused('ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_update_delete')).code).toBe(
      INSUFFICIENT_PRIVILEGE,
    );
  });

  it('should be refused UPDATE, DELETE and TRUNCATE of audit_events by its grants, before any trigger', async () => {
    for (const statement of [
      "UPDATE audit_events SET action = 'x'",
      'DELETE FROM audit_events',
      'TRUNCATE audit_events',
      "UPDATE audit_events SET action = 'x' WHERE false",
    ]) {
      const err = await refused(statement);
      expect(err.code, statement).toBe(INSUFFICIENT_PRIVILEGE);
      expect(err.message, statement).toMatch(/permission denied for table audit_events/);
    }
  });

  it('should not be able to create tables or triggers, nor empty an ordinary table', async () => {
    expect((await refused('CREATE TABLE app_role_probe (x int)')).code).toBe(INSUFFICIENT_PRIVILEGE);
    expect((await refused('TRUNCATE patients')).code).toBe(INSUFFICIENT_PRIVILEGE);
    const trigger = await refused(
      'CREATE TRIGGER app_role_probe BEFORE INSERT ON patients FOR EACH ROW EXECUTE FUNCTION audit_events_append_only()',
    );
    expect(trigger.code).toBe(INSUFFICIENT_PRIVILEGE);
    // it reads and writes the app's tables: the whole suite runs the app as this role
    await expect(database.pool.query('SELECT count(*) FROM patients')).resolves.toBeDefined();
  });

  it("should give the audit trail's tables read and insert only, and a table a later migration adds row rights", async () => {
    const owner = database.ownerPool();
    await owner.query('CREATE TABLE app_role_plain (id bigint PRIMARY KEY)');
    await owner.query('SELECT registry_grant_app_role($1)', [TEST_APP_ROLE]);
    for (const table of ['audit_events', 'audit_seals', 'audit_seal_heads']) {
      const { rows } = await owner.query(
        `SELECT has_table_privilege($1, $2, 'SELECT') AS s, has_table_privilege($1, $2, 'INSERT') AS i,
                has_table_privilege($1, $2, 'UPDATE') AS u, has_table_privilege($1, $2, 'DELETE') AS d,
                has_table_privilege($1, $2, 'TRUNCATE') AS t, has_table_privilege($1, $2, 'TRIGGER') AS g`,
        [TEST_APP_ROLE, table],
      );
      expect(rows[0], table).toEqual({ s: true, i: true, u: false, d: false, t: false, g: false });
    }
    for (const statement of [
      'UPDATE audit_seals SET mac = mac',
      'DELETE FROM audit_seal_heads',
      'TRUNCATE audit_seals',
    ])
      expect((await refused(statement)).code, statement).toBe(INSUFFICIENT_PRIVILEGE);
    await database.pool.query('INSERT INTO app_role_plain VALUES (1)');
    await expect(database.pool.query('DELETE FROM app_role_plain')).resolves.toMatchObject({ rowCount: 1 });
  });

  it('should refuse to grant to the owner itself or to a missing role, and to be run by the app', async () => {
    const owner = database.ownerPool();
    const { rows } = await owner.query<{ me: string }>('SELECT current_user AS me');
    await expect(owner.query('SELECT registry_grant_app_role($1)', [rows[0]?.me])).rejects.toThrow(
      /is the migrations' owner role/,
    );
    await expect(owner.query('SELECT registry_grant_app_role($1)', ['no_such_role_x'])).rejects.toThrow(
      /does not exist/,
    );
    // the app role may not run it at all
    expect((await refused(`SELECT registry_grant_app_role('${TEST_APP_ROLE}')`)).code).toBe(INSUFFICIENT_PRIVILEGE);
  });
});
