import type { Db } from '../db/client';
import { countHit, purgeExpiredHits, readHits, type WindowCount } from './rate-limit-store.repository';

/** How often an instance deletes the counters of windows that have passed (at most). */
const PURGE_EVERY_MS = 60_000;

type Callback = (err: Error | null, result?: WindowCount) => void;
/** What `child` receives besides the route's limits (the plugin's typings leave `routeInfo` out). */
type RouteOptions = { routeInfo?: { method?: string | string[]; url?: string } };

/**
 * @fastify/rate-limit's store interface (its README, "Custom store"): `incr(key, cb, timeWindow, max)`, `read(...)`
 * (the same without counting) and `child(routeOptions)` (a store per route), built with `new Store(options)`.
 *
 * The plugin's default store counts in the memory of one process, so behind a load balancer each instance would grant
 * the whole limit again. This one counts in PostgreSQL (`rate_limit_hits`), which every instance shares: a fixed window
 * per route and key (the client's IP), on the database's clock. The counters of windows that have passed are deleted
 * by the store itself, at most once a minute per instance, before it counts: the table holds only the keys of the
 * last window. `continueExceeding` and `exponentialBackoff` are not supported (no route uses them). A database that
 * cannot be reached fails the request with the error handler's 503, as every other call would.
 */
export function createPgRateLimitStore(deps: { db: Db; purgeEveryMs?: number }) {
  const purgeEveryMs = deps.purgeEveryMs ?? PURGE_EVERY_MS;
  let lastPurge = 0;
  const purgeIfDue = async () => {
    const now = Date.now();
    if (now - lastPurge < purgeEveryMs) return;
    lastPurge = now;
    await purgeExpiredHits(deps.db);
  };

  class PgRateLimitStore {
    /** `<method><route>-`: keeps each route's counters apart, as the plugin's Redis store does. */
    private readonly prefix: string;

    constructor(_options?: unknown, prefix = '') {
      this.prefix = prefix;
    }

    incr(key: string, cb: Callback, timeWindow: number): void {
      purgeIfDue()
        .then(() => countHit(deps.db, this.prefix + key, timeWindow))
        .then(
          (result) => cb(null, result),
          (err: unknown) => cb(err instanceof Error ? err : new Error(String(err))),
        );
    }

    read(key: string, cb: Callback): void {
      readHits(deps.db, this.prefix + key).then(
        (result) => cb(null, result),
        (err: unknown) => cb(err instanceof Error ? err : new Error(String(err))),
      );
    }

    child(routeOptions: object): PgRateLimitStore {
      const info = (routeOptions as RouteOptions).routeInfo;
      const method = info?.method;
      const route = `${Array.isArray(method) ? method.join(',') : (method ?? '')}${info?.url ?? ''}`;
      return new PgRateLimitStore(undefined, `${this.prefix}${route}-`);
    }
  }
  return PgRateLimitStore;
}
