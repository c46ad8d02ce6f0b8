import { startEmbeddedPostgres, type EmbeddedPostgres, type EmbeddedPostgresOptions } from './embedded-postgres';

export type SupervisedEmbeddedPostgres = Omit<EmbeddedPostgres, 'exited'> & {
  /** How many times the supervisor has restarted PostgreSQL after an unexpected exit. */
  restarts(): number;
};

export type SuperviseOptions = {
  /** Wait before the first restart; doubled after each failed attempt. Default 500 ms. */
  restartDelayMs?: number;
  /** Longest wait between restart attempts. Default 30 s. */
  maxRestartDelayMs?: number;
  /** A PostgreSQL that stayed up this long starts the backoff afresh after its next exit. Default 60 s. */
  stableAfterMs?: number;
};

/**
 * Starts the embedded PostgreSQL and keeps it running: when the postmaster exits unexpectedly (killed, crashed, out
 * of memory) the supervisor logs it and starts it again on the same data directory and port — after a delay that
 * doubles with every failed attempt (a restart can fail while the dead postmaster's children still hold its shared
 * memory), never giving up. PostgreSQL's crash recovery replays the WAL, so every committed transaction survives.
 * Meanwhile queries fail and the API answers 503; the pool reconnects once the database is back. `stop()` (on
 * shutdown) ends the supervision first, then PostgreSQL. The first start's failure is thrown, as with
 * `startEmbeddedPostgres`.
 */
export async function superviseEmbeddedPostgres(
  opts: EmbeddedPostgresOptions,
  supervise: SuperviseOptions = {},
): Promise<SupervisedEmbeddedPostgres> {
  const { logger } = opts;
  const baseDelay = supervise.restartDelayMs ?? 500;
  const maxDelay = supervise.maxRestartDelayMs ?? 30_000;
  const stableAfter = supervise.stableAfterMs ?? 60_000;
  let current = await startEmbeddedPostgres(opts);
  let startedAt = Date.now();
  let stopping = false;
  let restarts = 0;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  let starting: Promise<void> | undefined;

  const schedule = () => {
    if (stopping) return;
    const wait = Math.min(maxDelay, baseDelay * 2 ** Math.min(failures, 20));
    logger.warn(`将在 ${wait} ms 后重启嵌入式 PostgreSQL / restarting the embedded PostgreSQL in ${wait} ms`);
    timer = setTimeout(() => {
      timer = undefined;
      starting = restart().finally(() => {
        starting = undefined;
      });
    }, wait);
  };

  const restart = async () => {
    if (stopping) return;
    try {
      current = await startEmbeddedPostgres(opts);
    } catch (err) {
      failures++;
      logger.error(
        `嵌入式 PostgreSQL 重启失败（第 ${failures} 次） / restart of the embedded PostgreSQL failed: ${
          err instanceof Error ? err.message : String(err)
        }`,
      );
      schedule();
      return;
    }
    startedAt = Date.now();
    restarts++;
    logger.warn(`嵌入式 PostgreSQL 已重启（第 ${restarts} 次） / the embedded PostgreSQL was restarted`);
    if (stopping) {
      await current.stop();
      return;
    }
    watch(current);
  };

  const watch = (instance: EmbeddedPostgres) => {
    void instance.exited.then((exit) => {
      if (exit.expected || stopping) return;
      if (Date.now() - startedAt >= stableAfter) failures = 0;
      else failures++;
      logger.error(
        `嵌入式 PostgreSQL 意外退出 (code=${exit.code}, signal=${exit.signal}) / the embedded PostgreSQL exited ` +
          `unexpectedly`,
      );
      schedule();
    });
  };
  watch(current);

  return {
    connectionString: current.connectionString,
    appConnectionString: current.appConnectionString,
    adminConnectionString: current.adminConnectionString,
    port: current.port,
    dataDir: current.dataDir,
    restarts: () => restarts,
    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await starting;
      await current.stop();
    },
  };
}
