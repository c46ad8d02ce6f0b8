import { lt, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { rateLimitHits } from '../db/schema';

export type WindowCount = { current: number; ttl: number };

/**
 * Counts one request of `key` in its fixed window of `windowMs`, atomically (one statement: concurrent requests on
 * several instances each get their own count). A key whose window has passed starts a new one at 1. The window's
 * times are the database's clock, the same for every instance. `ttl`: milliseconds until the window ends.
 */
export async function countHit(db: Executor, key: string, windowMs: number): Promise<WindowCount> {
  const result = await db.execute(sql`
    insert into ${rateLimitHits} as h (key, hits, expires_at)
    values (${key}, 1, now() + make_interval(secs => ${windowMs}::double precision / 1000))
    on conflict (key) do update set
      hits = case when h.expires_at <= now() then 1 else h.hits + 1 end,
      expires_at = case when h.expires_at <= now() then excluded.expires_at else h.expires_at end
    returning h.hits as current,
      greatest(0, ceil(extract(epoch from h.expires_at - now()) * 1000))::bigint as ttl`);
  const row = result.rows[0] as { current: number; ttl: string | number };
  return { current: Number(row.current), ttl: Number(row.ttl) };
}

/** The count of `key`'s current window without counting (0 when there is none). */
export async function readHits(db: Executor, key: string): Promise<WindowCount> {
  const result = await db.execute(sql`
    select hits as current, greatest(0, ceil(extract(epoch from expires_at - now()) * 1000))::bigint as ttl
      from ${rateLimitHits} where key = ${key} and expires_at > now()`);
  const row = result.rows[0] as { current: number; ttl: string | number } | undefined;
  return row ? { current: Number(row.current), ttl: Number(row.ttl) } : { current: 0, ttl: 0 };
}

/** Deletes the counters whose window has passed; returns how many. */
export async function purgeExpiredHits(db: Executor): Promise<number> {
  const deleted = await db
    .delete(rateLimitHits)
    .where(lt(rateLimitHits.expiresAt, sql`now()`))
    .returning({ key: rateLimitHits.key });
  return deleted.length;
}
