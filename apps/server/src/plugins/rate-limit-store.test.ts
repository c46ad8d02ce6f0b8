import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/db';
import { createDb, type Db } from '../db/client';
import { createPgRateLimitStore } from './rate-limit-store';
import type { WindowCount } from './rate-limit-store.repository';

let database: TestDatabase;
let db: Db;
beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb(database.pool);
});
afterAll(async () => {
  await database?.close();
});

type Store = InstanceType<ReturnType<typeof createPgRateLimitStore>>;
const incr = (store: Store, key: string, windowMs = 60_000) =>
  new Promise<WindowCount>((resolve, reject) =>
    store.incr(key, (err, res) => (err || !res ? reject(err ?? new Error('no result')) : resolve(res)), windowMs),
  );
const read = (store: Store, key: string) =>
  new Promise<WindowCount>((resolve, reject) =>
    store.read(key, (err, res) => (err || !res ? reject(err ?? new Error('no result')) : resolve(res))),
  );
const route = (method: string, url: string) => ({ routeInfo: { method, url } });

describe('the PostgreSQL rate-limit store', () => {
  it('should count one key across two instances, and keep routes apart', async () => {
    // two processes: each its own store object, one database
    const one = new (createPgRateLimitStore({ db }))().child(route('POST', '/login'));
    const two = new (createPgRateLimitStore({ db }))().child(route('POST', '/login'));
    const other = new (createPgRateLimitStore({ db }))().child(route('GET', '/sms'));
    const counts = await Promise.all([incr(one, '10.1.0.1'), incr(two, '10.1.0.1'), incr(one, '10.1.0.1')]);
    expect(counts.map((c) => c.current).sort()).toEqual([1, 2, 3]);
    expect((await incr(two, '10.1.0.1')).current).toBe(4);
    expect((await incr(other, '10.1.0.1')).current).toBe(1);
    expect((await incr(one, '10.1.0.2')).current).toBe(1);
    const now = await read(two, '10.1.0.1');
    expect(now.current).toBe(4);
    expect(now.ttl).toBeGreaterThan(0);
    expect(now.ttl).toBeLessThanOrEqual(60_000);
    expect(await read(two, '10.1.0.9')).toEqual({ current: 0, ttl: 0 });
  });

  it('should start a new window once the old one has passed, and purge passed windows', async () => {
    await database.pool.query(
      `insert into rate_limit_hits (key, hits, expires_at) values
         ('GET/captcha-10.2.0.1', 50, now() - interval '1 second'),
         ('GET/captcha-10.2.0.2', 7, now() - interval '2 minutes'),
         ('GET/captcha-10.2.0.3', 3, now() + interval '1 minute')`,
    );
    const store = new (createPgRateLimitStore({ db }))().child(route('GET', '/captcha'));
    // its first count purges: the passed windows are gone, the live one stays
    expect(await incr(store, '10.2.0.1')).toMatchObject({ current: 1 });
    const { rows } = await database.pool.query<{ key: string; hits: number }>(
      "select key, hits from rate_limit_hits where key like 'GET/captcha-%' order by key",
    );
    expect(rows).toEqual([
      { key: 'GET/captcha-10.2.0.1', hits: 1 },
      { key: 'GET/captcha-10.2.0.3', hits: 3 },
    ]);
  });
});
