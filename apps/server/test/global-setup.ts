import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../src/db/embedded-postgres';
import { runMigrations } from '../src/db/migrate';
import { closePool, createPool } from '../src/db/pool';
import { createDb } from '../src/db/client';
import { ensureReferenceData } from '../src/db/reference-data/ensure-reference-data';
import { findFreePort } from './free-port';
import { ensureTestAppRole, quoteIdent, TEST_APP_ROLE, withClient, withDatabase } from './pg-admin';

export type TestDatabaseContext = {
  /**
   * A superuser URL to the server's maintenance database (`postgres`); the superuser owns the tables it migrates.
   * The app's role is TEST_APP_ROLE (test/pg-admin.ts).
   */
  adminUrl: string;
  /** A migrated database that each test file clones. */
  templateDatabase: string;
  /** `embedded` (a cluster started for this run) or `external` (TEST_DATABASE_URL). */
  mode: 'embedded' | 'external';
};

declare module 'vitest' {
  // module augmentation needs an interface
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  export interface ProvidedContext {
    testDb: TestDatabaseContext;
  }
}

const quietLogger = {
  info: () => undefined,
  warn: (msg: string) => console.warn(msg),
  error: (msg: string) => console.error(msg),
};

/**
 * One PostgreSQL for the whole run: TEST_DATABASE_URL when set (failing loudly if unreachable), otherwise an
 * embedded cluster in a temporary directory on a free port. A uniquely named template database is migrated once;
 * each test file clones it (see test/db.ts).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const external = process.env.TEST_DATABASE_URL;
  let embedded: EmbeddedPostgres | undefined;
  let tmpDir: string | undefined;
  let adminUrl: string;

  if (external) {
    try {
      await withClient(external, (c) => c.query('SELECT 1'));
    } catch (err) {
      throw new Error(
        `TEST_DATABASE_URL 指向的 PostgreSQL 无法连接，测试不会跳过。 / The PostgreSQL at TEST_DATABASE_URL ` +
          `(${redact(external)}) cannot be reached; the server tests refuse to run without it: ${String(err)}`,
        { cause: err },
      );
    }
    adminUrl = external;
  } else {
    tmpDir = await fs.mkdtemp(path.join(os.tmpdir(), 'registry-test-pg-'));
    await fs.chmod(tmpDir, 0o755); // the system user PostgreSQL runs as must reach the data directory
    embedded = await startEmbeddedPostgres({
      dataDir: path.join(tmpDir, 'pg'),
      port: await findFreePort(),
      database: 'postgres',
      logger: quietLogger,
      // a throw-away cluster: durability is not needed, speed is
      settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' },
    });
    adminUrl = embedded.adminConnectionString;
  }

  await dropAbandonedDatabases(adminUrl);
  const templateDatabase = `${PREFIX}${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const cleanup = async () => {
    try {
      await withClient(adminUrl, async (c) => {
        const { rows } = await c.query<{ datname: string }>(
          'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
          [templateDatabase],
        );
        for (const { datname } of rows) {
          await c.query(`DROP DATABASE IF EXISTS ${quoteIdent(datname)} WITH (FORCE)`);
        }
      });
    } finally {
      await embedded?.stop();
      if (tmpDir) await fs.rm(tmpDir, { recursive: true, force: true });
    }
  };

  try {
    await withClient(adminUrl, (c) => c.query(`CREATE DATABASE ${quoteIdent(templateDatabase)}`));
    // the app runs as a role that owns no table on both lanes (ADR 0015): the whole suite proves its grants suffice
    await ensureTestAppRole(adminUrl);
    await runMigrations(withDatabase(adminUrl, templateDatabase), { appRole: TEST_APP_ROLE });
    // the bundled lists and areas go into the template once, so every cloned test database has them
    const pool = createPool(withDatabase(adminUrl, templateDatabase), { logger: quietLogger });
    try {
      await ensureReferenceData(createDb(pool));
    } finally {
      await closePool(pool);
    }
  } catch (err) {
    await cleanup().catch(() => undefined);
    throw err;
  }

  project.provide('testDb', { adminUrl, templateDatabase, mode: external ? 'external' : 'embedded' });
  return cleanup;
}

const PREFIX = 'registry_test_';
const ABANDONED_AFTER_MS = 6 * 60 * 60 * 1000;

/** Databases of runs that were killed before their teardown (the name carries the run's start time). */
async function dropAbandonedDatabases(adminUrl: string): Promise<void> {
  await withClient(adminUrl, async (c) => {
    const { rows } = await c.query<{ datname: string }>(
      `SELECT datname FROM pg_database d WHERE starts_with(datname, $1)
         AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.datid = d.oid)`,
      [PREFIX],
    );
    for (const { datname } of rows) {
      const startedAt = Number.parseInt(datname.slice(PREFIX.length).split('_')[0] ?? '', 36);
      if (Number.isFinite(startedAt) && Date.now() - startedAt > ABANDONED_AFTER_MS) {
        await c.query(`DROP DATABASE IF EXISTS ${quoteIdent(datname)}`).catch(() => undefined);
      }
    }
  });
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(invalid URL)';
  }
}
