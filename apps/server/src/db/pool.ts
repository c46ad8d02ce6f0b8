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
 * A pg.Pool with sane limits. An error on an idle client (e.g. PostgreSQL was restarted or killed) is logged and
 * never crashes the process; the broken client is discarded by pg and later queries reconnect or fail fast.
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
  pool.on('error', (err) => {
    logger.error(`database pool: idle client error: ${err.message}`);
  });
  return pool;
}

/** Ends the pool once; later calls are no-ops. */
export async function closePool(pool: pg.Pool): Promise<void> {
  if (pool.ended || pool.ending) return;
  await pool.end();
}
