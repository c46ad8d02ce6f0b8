import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../test/free-port';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';
import { closePool, createPool, isDatabaseUnavailable } from './pool';

const noop = () => undefined;

describe('createPool', () => {
  let root: string;
  let db: EmbeddedPostgres;

  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'registry-pool-test-'));
    await fs.chmod(root, 0o755);
    db = await startEmbeddedPostgres({
      dataDir: path.join(root, 'pg'),
      port: await findFreePort(),
      logger: { info: noop, warn: noop, error: noop },
    });
  });

  afterAll(async () => {
    await db?.stop();
    await fs.rm(root, { recursive: true, force: true });
  });

  it('should run queries with a registry application name when connected', async () => {
    const pool = createPool(db.connectionString);
    const { rows } = await pool.query<{ app: string; v: string }>(
      "SELECT current_setting('application_name') AS app, $1::text AS v",
      ['病例'],
    );
    expect(rows).toEqual([{ app: 'registry', v: '病例' }]);
    await closePool(pool);
    await closePool(pool); // closing twice is harmless
    expect(pool.ended).toBe(true);
  });

  it('should survive a checked-out client losing its backend, answer "unavailable" and reconnect', async () => {
    const errors: string[] = [];
    const pool = createPool(db.connectionString, { logger: { error: (m) => errors.push(m) } });
    const client = await pool.connect();
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const admin = new pg.Client({ connectionString: db.adminConnectionString });
    await admin.connect();
    await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
    await admin.end();
    // without a listener on the checked-out client, its 'error' event would have killed the test process
    await expect.poll(() => errors.length, { timeout: 5000 }).toBeGreaterThan(0);
    expect(errors[0]).toMatch(/connection lost while in use/);
    const failed = await client.query('SELECT 1').catch((err: unknown) => err);
    expect(isDatabaseUnavailable(failed)).toBe(true);
    client.release();
    expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await closePool(pool);
  });

  it('should mark a failure to get a connection as "unavailable", whatever its code, and not a bad query', async () => {
    const url = new URL(db.connectionString);
    url.pathname = '/no_such_database';
    const pool = createPool(url.toString(), { logger: { error: noop } });
    const refused = await pool.query('SELECT 1').catch((err: unknown) => err);
    expect((refused as { code?: string }).code).toBe('3D000');
    expect(isDatabaseUnavailable(refused)).toBe(true);
    await closePool(pool);
    const good = createPool(db.connectionString, { logger: { error: noop } });
    const bad = await good.query('SELECT * FROM no_such_table').catch((err: unknown) => err);
    expect(isDatabaseUnavailable(bad)).toBe(false);
    await closePool(good);
  });

  it('should log the error and fail later queries fast when the database goes away', async () => {
    const errors: string[] = [];
    const pool = createPool(db.connectionString, {
      connectionTimeoutMillis: 1000,
      logger: { error: (m) => errors.push(m) },
    });
    await Promise.all([pool.query('SELECT 1'), pool.query('SELECT 1')]);
    expect(pool.idleCount).toBeGreaterThan(0);

    await db.stop(); // terminates the idle connections: pg emits 'error' on the pool
    await expect.poll(() => errors.length, { timeout: 5000 }).toBeGreaterThan(0);
    expect(errors[0]).toMatch(/idle client error/);

    // Refused as "database unavailable" (a 503 to the caller), not left waiting: the test's own timeout is the bound.
    const refused = await pool.query('SELECT 1').catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(refused)).toBe(true);
    await closePool(pool);
  });
});
