import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/db';
import { createDb, type Db } from '../db/client';
import { isQueryCanceled, isUniqueViolation } from './errors';

let database: TestDatabase;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb(database.pool);
});
afterAll(async () => {
  await database.close();
});

describe('PostgreSQL errors through Drizzle', () => {
  it('should recognise a statement cancelled by its timeout, and nothing else as one', async () => {
    const err = await db
      .transaction(async (tx) => {
        await tx.execute(sql`select set_config('statement_timeout', '50', true)`);
        await tx.execute(sql`select pg_sleep(2)`);
      })
      .catch((e: unknown) => e);
    expect(isQueryCanceled(err)).toBe(true);
    expect(isUniqueViolation(err, 'any')).toBe(false);
    expect(isQueryCanceled(await db.execute(sql`select 1/0`).catch((e: unknown) => e))).toBe(false);
  });
});
