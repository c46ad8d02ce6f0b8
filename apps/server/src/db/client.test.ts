import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/db';
import { createDb, executePrepared, runPrepared, type Db } from './client';
import { tenants } from './schema';

let database: TestDatabase;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb(database.pool);
  await db.insert(tenants).values([
    { code: 'pa', name: '甲医院', type: 'HOSPITAL' },
    { code: 'pb', name: '乙医院', type: 'HOSPITAL' },
  ]);
});

afterAll(async () => {
  await database.close();
});

describe('runPrepared', () => {
  it('should answer each call with its own values while the connection keeps one named statement', async () => {
    const client = await database.pool.connect();
    try {
      const onClient = createDb(client as never);
      const byCode = (code: string) =>
        runPrepared(onClient.select({ name: tenants.name }).from(tenants).where(eq(tenants.code, code)));
      expect(await byCode('pa')).toEqual([{ name: '甲医院' }]);
      expect(await byCode('pb')).toEqual([{ name: '乙医院' }]);
      expect(await byCode('none')).toEqual([]);
      const { rows } = await client.query<{ name: string }>(
        "select name from pg_prepared_statements where name like 'q\\_%' and statement like '%tenants%'",
      );
      expect(rows).toHaveLength(1);
    } finally {
      client.release();
    }
  });

  it('should keep statements of different shapes apart', async () => {
    const one = await runPrepared(db.select({ code: tenants.code }).from(tenants).where(eq(tenants.code, 'pa')));
    const other = await runPrepared(db.select({ name: tenants.name }).from(tenants).where(eq(tenants.code, 'pa')));
    expect(one).toEqual([{ code: 'pa' }]);
    expect(other).toEqual([{ name: '甲医院' }]);
  });
});

describe('executePrepared', () => {
  it('should run a raw query as one named statement per shape, on the database and in a transaction', async () => {
    const client = await database.pool.connect();
    try {
      const onClient = createDb(client as never);
      const nameOf = (code: string) =>
        executePrepared<{ name: string }>(onClient, sql`select name from tenants where code = ${code} /* raw */`);
      expect((await nameOf('pa')).rows).toEqual([{ name: '甲医院' }]);
      expect((await nameOf('pb')).rows).toEqual([{ name: '乙医院' }]);
      const inTx = await onClient.transaction(async (tx) =>
        executePrepared<{ name: string }>(tx, sql`select name from tenants where code = ${'pb'} /* raw */`),
      );
      expect(inTx.rows).toEqual([{ name: '乙医院' }]);
      const { rows } = await client.query<{ name: string }>(
        "select name from pg_prepared_statements where name like 'q\\_%' and statement like '%/* raw */%'",
      );
      expect(rows).toHaveLength(1);
    } finally {
      client.release();
    }
  });
});
