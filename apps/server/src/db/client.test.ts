import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/db';
import { createDb, runPrepared, type Db } from './client';
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
