import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../test/free-port';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';
import { closePool, createPool } from './pool';

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

    const t0 = Date.now();
    await expect(pool.query('SELECT 1')).rejects.toThrow();
    expect(Date.now() - t0).toBeLessThan(3000);
    await closePool(pool);
  });
});
