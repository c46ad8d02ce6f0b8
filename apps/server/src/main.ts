import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import type pg from 'pg';
import { buildApp } from './app';
import { ConfigError, loadConfig, type AppConfig } from './config/config';
import { createDb } from './db/client';
import { superviseEmbeddedPostgres, type SupervisedEmbeddedPostgres } from './db/embedded-postgres';
import { runMigrations } from './db/migrate';
import { closePool, createPool } from './db/pool';
import { ensureReferenceData } from './db/reference-data/ensure-reference-data';
import { DEMO_ACCOUNTS, seedDemo, seedReferenceData } from './db/seed';
import { resolvePhiKeys } from './lib/phi-crypto';
import { purgeExpiredSignInData } from './modules/auth/auth.repository';
import { seedDemoRecords } from './modules/form-record/form-record.seed';
import { seedDemoFollowup } from './modules/followup/followup-plan.seed';
import { seedDemoPatients } from './modules/patient/patient.seed';

/** Longest a graceful shutdown may take before the process exits anyway. */
const SHUTDOWN_TIMEOUT_MS = 10_000;
/** How often expired captchas, SMS and QR codes and long-dead sessions are deleted. */
const PURGE_INTERVAL_MS = 60 * 60_000;

function printBanner(config: AppConfig, seeded: boolean): void {
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const lines = [
    '',
    `注册平台已启动: http://${host}:${config.port}`,
    '',
    seeded ? '演示账号（已写入演示数据）:' : '演示账号:',
    ...DEMO_ACCOUNTS.map((a) => `  ${a.username.padEnd(10)} ${a.password.padEnd(12)} ${a.role}`),
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const log = pino({ level: config.logLevel });

  let embedded: SupervisedEmbeddedPostgres | undefined;
  let pool: pg.Pool | undefined;
  let app: FastifyInstance | undefined;
  let shuttingDown = false;

  const shutdown = async (reason: string, code: number) => {
    if (shuttingDown) return;
    shuttingDown = true;
    log.info(`正在停止 (${reason})`);
    const timer = setTimeout(() => {
      log.error('shutdown timed out; exiting');
      process.exit(code || 1);
    }, SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    try {
      if (app) await app.close();
      if (pool) await closePool(pool);
      if (embedded) await embedded.stop();
    } catch (err) {
      log.error({ err }, 'error during shutdown');
      code = code || 1;
    }
    process.exit(code);
  };
  process.once('SIGINT', () => void shutdown('SIGINT', 0));
  process.once('SIGTERM', () => void shutdown('SIGTERM', 0));

  try {
    // The PHI keys before anything else: a production start without them stops here with a clear message.
    const phiKeys = await resolvePhiKeys(config);
    let connectionString = config.databaseUrl;
    if (!connectionString) {
      // supervised: should the postmaster die, it is restarted (with backoff) and the server carries on
      embedded = await superviseEmbeddedPostgres({
        dataDir: path.join(config.dataDir, 'pg'),
        port: config.embeddedPgPort,
        logger: {
          info: (msg: string) => log.info(msg),
          warn: (msg: string) => log.warn(msg),
          error: (msg: string) => log.error(msg),
        },
      });
      connectionString = embedded.connectionString;
    }
    await runMigrations(connectionString, { logger: { info: (m) => log.info(m), warn: (m) => log.warn(m) } });
    pool = createPool(connectionString, { logger: { error: (m) => log.error(m) } });
    const db = createDb(pool);
    await seedReferenceData(db);
    const loaded = await ensureReferenceData(db);
    if (loaded.lists.length > 0) log.info(`已载入内置字典: ${loaded.lists.join(', ')}`);
    if (loaded.areas) log.info(`已载入行政区划: ${loaded.areas}`);
    const seeded = config.seedDemo ? await seedDemo(db) : false;
    if (config.seedDemo) {
      await seedDemoPatients(db, phiKeys);
      await seedDemoRecords(db);
      await seedDemoFollowup(db);
    }
    app = await buildApp({ config, pool, logger: { level: config.logLevel } });
    await app.listen({ host: config.host, port: config.port });
    printBanner(config, seeded);
    const purge = () =>
      purgeExpiredSignInData(db, new Date()).then(
        (n) => n > 0 && log.info(`purged ${n} expired sign-in rows`),
        (err: unknown) => log.warn({ err }, 'purge of expired sign-in rows failed'),
      );
    void purge();
    setInterval(() => void purge(), PURGE_INTERVAL_MS).unref();
  } catch (err) {
    if (err instanceof ConfigError) process.stderr.write(`${err.message}\n`);
    log.fatal({ err }, '启动失败');
    await shutdown('startup failure', 1);
  }
}

void main();
