import pg from 'pg';

export type PoolLogger = { error(msg: string): void };

export type CreatePoolOptions = {
  /** Largest number of connections. Default 10. */
  max?: number;
  /** How long a request waits for a connection before failing. Default 5000 ms, so calls fail fast when the DB is gone. */
  connectionTimeoutMillis?: number;
  /** Idle connections are closed after this. Default 30000 ms. */
  idleTimeoutMillis?: number;
  /** Server-side limit of one statement. Default none. */
  statementTimeoutMillis?: number;
  /** Where errors of idle clients are reported. Default console.error. */
  logger?: PoolLogger;
  /** `application_name` seen in pg_stat_activity. Default `registry`. */
  applicationName?: string;
};

/**
 * A pg.Pool with sane limits. No lost connection crashes the process: an error on an idle client (PostgreSQL was
 * restarted, killed, or the backend terminated) is reported through the pool's `error` event, and an error on a
 * client that is checked out (a transaction under way when its backend is terminated) through the listener every
 * client gets when it connects — pg-pool removes its own listener while a client is checked out, and an `error`
 * event nobody listens to would kill Node. The query under way fails (the error handler answers 503), the broken
 * client is discarded when released, and later queries open new connections: the pool recovers by itself once the
 * database is back.
 */
export function createPool(connectionString: string, opts: CreatePoolOptions = {}): pg.Pool {
  const logger = opts.logger ?? { error: (msg: string) => console.error(msg) };
  const pool = new pg.Pool({
    connectionString,
    max: opts.max ?? 10,
    connectionTimeoutMillis: opts.connectionTimeoutMillis ?? 5000,
    idleTimeoutMillis: opts.idleTimeoutMillis ?? 30_000,
    application_name: opts.applicationName ?? 'registry',
    ...(opts.statementTimeoutMillis ? { statement_timeout: opts.statementTimeoutMillis } : {}),
  });
  const checkedOut = new WeakSet<pg.PoolClient>();
  pool.on('acquire', (client) => checkedOut.add(client));
  pool.on('release', (_err, client) => checkedOut.delete(client));
  pool.on('connect', (client) => {
    client.on('error', (err) => {
      // an idle client's error is also reported through the pool's event below: log it once
      if (checkedOut.has(client)) logger.error(`database pool: connection lost while in use: ${err.message}`);
    });
  });
  pool.on('error', (err) => {
    logger.error(`database pool: idle client error: ${err.message}`);
  });
  // Every query takes its connection through `connect` (pool.query too): an error there means no connection could
  // be had — refused, timed out, the database not accepting connections (55000), shutting down, a bad password —
  // whatever its code, so it is marked for the error handler to answer 503.
  const connect = pool.connect.bind(pool) as (
    cb: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ) => void;
  pool.connect = ((callback?: Parameters<typeof connect>[0]) => {
    if (callback) return connect((err, client, done) => callback(err ? markUnavailable(err) : err, client, done));
    return new Promise<pg.PoolClient>((resolve, reject) =>
      connect((err, client) =>
        err || !client ? reject(markUnavailable(err ?? new Error('no client'))) : resolve(client),
      ),
    );
  }) as typeof pool.connect;
  return pool;
}

const UNAVAILABLE = Symbol('database unavailable');

/** Marks an error as "the database cannot be reached" (a failed connect): `isDatabaseUnavailable` then says so. */
export function markUnavailable(err: Error): Error {
  if (typeof err === 'object' && err !== null && !Object.isFrozen(err)) {
    Object.defineProperty(err, UNAVAILABLE, { value: true });
  }
  return err;
}

/** Socket errors of a connection that failed or broke. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EADDRNOTAVAIL',
]);

/** SQLSTATEs of a database that is gone or cannot serve now (not of a bad query). */
function unavailableState(code: string): boolean {
  return (
    code.startsWith('08') || // connection exception
    /^57P0[1-5]$/.test(code) || // admin/crash shutdown, cannot connect now, database dropped, idle session timeout
    code.startsWith('53') // insufficient resources: too many connections, out of memory, disk full
  );
}

const LOST_CONNECTION =
  /timeout exceeded when trying to connect|Connection terminated|not queryable|Cannot use a pool after calling end/i;

/**
 * Whether an error (or one of its causes: Drizzle wraps driver errors) means the database cannot be reached or the
 * connection was lost — a failure to get a connection, a socket error, a shutdown or connection SQLSTATE, or pg's
 * messages of a broken client. The API answers these with 503; the next request may well succeed.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  let cur: unknown = err;
  for (let depth = 0; depth < 6 && cur && typeof cur === 'object'; depth++) {
    const e = cur as { code?: unknown; message?: unknown; cause?: unknown; [UNAVAILABLE]?: boolean };
    if (e[UNAVAILABLE]) return true;
    if (
      typeof e.code === 'string' &&
      (CONNECTION_CODES.has(e.code) || (/^[0-9A-Z]{5}$/.test(e.code) && unavailableState(e.code)))
    )
      return true;
    if (typeof e.message === 'string' && LOST_CONNECTION.test(e.message)) return true;
    cur = e.cause;
  }
  return false;
}

/** Ends the pool once; later calls are no-ops. */
export async function closePool(pool: pg.Pool): Promise<void> {
  if (pool.ended || pool.ending) return;
  await pool.end();
}
