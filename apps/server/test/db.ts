import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { inject } from 'vitest';
import { closePool, createPool } from '../src/db/pool';
import { asRole, dropDatabase, quoteIdent, withClient, withDatabase } from './pg-admin';

export type TestDatabase = {
  /** URL of this file's own database (a clone of the migrated template), as the app's role (ADR 0015). */
  connectionString: string;
  /** The app's pool: the role that owns no table, may not touch the audit trail's trigger nor change its rows. */
  pool: pg.Pool;
  /** The same database as the owner of its tables (a superuser): for migrations and deliberate tampering only. */
  ownerConnectionString: string;
  /** A pool as the owner (created on first use, ended by `close`): what a test that acts as an attacker uses. */
  ownerPool(): pg.Pool;
  /** Ends the pool and drops the database. */
  close(): Promise<void>;
};

const OBJECT_IN_USE = '55006';
const MAX_ATTEMPTS = 50;

/**
 * A fresh database for one test file: `CREATE DATABASE … TEMPLATE` the migrated template of this run.
 * Call it in `beforeAll` and `close()` in `afterAll`.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const { adminUrl, templateDatabase } = inject('testDb');
  const database = `${templateDatabase}_${randomBytes(4).toString('hex')}`;
  await withClient(adminUrl, async (client) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE ${quoteIdent(database)} TEMPLATE ${quoteIdent(templateDatabase)}`);
        return;
      } catch (err) {
        // "source database is being accessed by other users": another file is cloning it at this moment
        if ((err as { code?: string }).code !== OBJECT_IN_USE || attempt >= MAX_ATTEMPTS) throw err;
        await new Promise((r) => setTimeout(r, 20 + Math.random() * 80));
      }
    }
  });
  const ownerConnectionString = withDatabase(adminUrl, database);
  const connectionString = asRole(ownerConnectionString);
  const logger = { error: (msg: string) => console.error(msg) };
  const pool = createPool(connectionString, { max: 5, logger });
  let owner: pg.Pool | undefined;
  let closed = false;
  return {
    connectionString,
    pool,
    ownerConnectionString,
    ownerPool: () => (owner ??= createPool(ownerConnectionString, { max: 2, logger })),
    async close() {
      if (closed) return;
      closed = true;
      await closePool(pool);
      if (owner) await closePool(owner);
      await dropDatabase(adminUrl, database);
    },
  };
}
