import pg from 'pg';

/** Double-quotes an SQL identifier. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The same server URL with another database. */
export function withDatabase(connectionString: string, database: string): string {
  const url = new URL(connectionString);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

/** Runs `fn` with a short-lived client. */
export async function withClient<T>(connectionString: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Drops a database even if sessions are still connected (PostgreSQL 13+). */
export async function dropDatabase(adminUrl: string, database: string): Promise<void> {
  await withClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${quoteIdent(database)} WITH (FORCE)`));
}

/**
 * The role the app runs as in tests (ADR 0015), on both lanes: a login role that owns no table, granted by the
 * migrations like a deployment's. Roles are cluster-wide and several runs share a cluster, so the name and password
 * are fixed (any run may create or reset it and the others keep working); a throw-away secret of loopback test
 * clusters.
 */
export const TEST_APP_ROLE = 'registry_test_app';
const TEST_APP_PASSWORD = 'registry_test_app_pw';

/** Creates the tests' app role when missing, with the attributes and password the harness expects. */
export async function ensureTestAppRole(adminUrl: string): Promise<void> {
  await withClient(adminUrl, async (c) => {
    const attributes = `LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD '${TEST_APP_PASSWORD}'`;
    const { rowCount } = await c.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [TEST_APP_ROLE]);
    if (rowCount) return;
    try {
      await c.query(`CREATE ROLE ${quoteIdent(TEST_APP_ROLE)} ${attributes}`);
    } catch (err) {
      // created by a run starting at the same moment: 42710 duplicate_object, or 23505 on pg_authid's index
      const code = (err as { code?: string }).code;
      if (code !== '42710' && code !== '23505') throw err;
    }
  });
}

/** The same server and database as another role (the tests' app role by default). */
export function asRole(connectionString: string, role = TEST_APP_ROLE, password = TEST_APP_PASSWORD): string {
  const url = new URL(connectionString);
  url.username = encodeURIComponent(role);
  url.password = encodeURIComponent(password);
  return url.toString();
}

/** A login role that may only read (the tests' stand-in for a read replica's user; fixed like TEST_APP_ROLE). */
export const TEST_READER_ROLE = 'registry_test_reader';

/** Creates the reader role when missing; its SELECT grants are per database (`GRANT SELECT ON ALL TABLES …`). */
export async function ensureTestReaderRole(adminUrl: string): Promise<string> {
  await withClient(adminUrl, async (c) => {
    const { rowCount } = await c.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [TEST_READER_ROLE]);
    if (rowCount) return;
    try {
      await c.query(
        `CREATE ROLE ${quoteIdent(TEST_READER_ROLE)} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD '${TEST_APP_PASSWORD}'`,
      );
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code !== '42710' && code !== '23505') throw err;
    }
  });
  return TEST_APP_PASSWORD;
}
