import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe('login_attempts lookups', () => {
  it('should find an address’s recent failures through an index on ip, not by reading the whole table', async () => {
    await database.pool.query(`
      insert into login_attempts (username, ip, success, reason, at)
      select 'user' || (g % 500), '10.0.' || (g % 250) || '.' || (g % 200), false, 'bad_password',
             now() - (g || ' seconds')::interval
        from generate_series(1, 20000) g`);
    await database.ownerPool().query('analyze login_attempts'); // the owner: the app's role may not analyze
    const client = await database.pool.connect();
    try {
      await client.query('begin');
      await client.query('set local enable_seqscan = off');
      // the statement recentFailuresFromIp issues
      const plan = await client.query<{ 'QUERY PLAN': string }>(
        `explain select count(*)::int, max(at)::text from login_attempts
          where ip = $1 and success = false and at > $2`,
        ['10.0.3.3', new Date(Date.now() - 15 * 60_000).toISOString()],
      );
      await client.query('rollback');
      const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(text).toContain('login_attempts_ip_at_idx');
      expect(text).not.toContain('Seq Scan');
    } finally {
      client.release();
    }
  });
});
