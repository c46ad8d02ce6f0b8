import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import type pg from 'pg';
import { buildApp } from './app';
import { ConfigError, loadConfig, type AppConfig } from './config/config';
import { createDb } from './db/client';
import { DEFAULT_APP_ROLE } from './db/embedded-postgres';
import { superviseEmbeddedPostgres, type SupervisedEmbeddedPostgres } from './db/embedded-postgres-supervisor';
import { runMigrations } from './db/migrate';
import { closePool, createPool, isDatabaseUnavailable } from './db/pool';
import { ensureReferenceData } from './db/reference-data/ensure-reference-data';
import { DEMO_ACCOUNTS, seedDemo, seedReferenceData } from './db/seed';
import { resolvePhiKeys } from './lib/phi-crypto';
import { seedDemoRecords } from './modules/patient-record/patient-record.seed';
import { seedDemoFollowup } from './modules/followup/followup-plan.seed';
import { seedDemoPatients } from './modules/patient/patient.seed';
import { serializeError } from './plugins/request-log';

/** Longest a graceful shutdown may take before the process exits anyway. */
const SHUTDOWN_TIMEOUT_MS = 10_000;
/** First and longest wait between attempts to reach and migrate a database that is down at start. */
const FIRST_PREPARE_DELAY_MS = 500;
const MAX_PREPARE_DELAY_MS = 15_000;

function printBanner(config: AppConfig, seeded: boolean): void {
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const lines = [
    '',
    `注册平台已启动: http://${host}:${config.port}`,
    config.storage.driver === 's3'
      ? `文件存储: S3 存储桶 ${config.storage.bucket}${config.storage.endpoint ? ` (${config.storage.endpoint})` : ''}`
      : `文件存储: 本地目录 ${config.storage.dir}`,
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
  // the process log shares the request log's error serializer: a failed query never logs its parameters
  const log = pino({ level: config.logLevel, serializers: { err: serializeError } });

  let embedded: SupervisedEmbeddedPostgres | undefined;
  let pool: pg.Pool | undefined;
  let readPool: pg.Pool | undefined;
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
      if (readPool) await closePool(readPool);
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
    const target = await resolveDatabase(config, log);
    embedded = target.embedded;
    pool = createPool(target.appUrl, { logger: { error: (m) => log.error(m) } });
    if (target.replicaUrl) {
      readPool = createPool(target.replicaUrl, {
        logger: { error: (m) => log.error(m) },
        applicationName: 'registry-read',
      });
    }
    const db = createDb(pool);
    const livePool = pool;

    // The server listens at once, even while its database is down or still coming up: until the database has been
    // reached and migrated every API route (`/health` too) answers 503 with the outage message, and the
    // preparation below is retried with a growing delay. Jobs start only once it is done.
    let ready = false;
    app = await buildApp({
      config: { ...config, jobsEnabled: false },
      pool,
      readPool,
      logger: { level: config.logLevel },
      databaseReady: () => ready,
    });
    await app.listen({ host: config.host, port: config.port });
    const liveApp = app;

    /** Migrations, reference data and demo data: idempotent, and serialised between instances. */
    const prepare = async (): Promise<boolean> => {
      await runMigrations(target.ownerUrl, {
        appRole: target.appRole,
        logger: { info: (m) => log.info(m), warn: (m) => log.warn(m) },
      });
      await warnIfAppRoleIsPrivileged(livePool, log);
      return withStartupLock(livePool, async () => {
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
        return seeded;
      });
    };
    let seeded = false;
    for (let attempt = 0; ; attempt++) {
      if (shuttingDown) return;
      try {
        seeded = await prepare();
        break;
      } catch (err) {
        // a database that cannot be reached (yet) is waited for; any other failure (a broken migration) is fatal
        if (!isDatabaseUnavailable(err)) throw err;
        const wait = Math.min(MAX_PREPARE_DELAY_MS, FIRST_PREPARE_DELAY_MS * 2 ** Math.min(attempt, 10));
        log.warn(
          `数据库暂不可用，${wait} ms 后重试（第 ${attempt + 1} 次） / database unavailable, retrying in ${wait} ms: ${
            serializeError(err).message
          }`,
        );
        await new Promise((r) => setTimeout(r, wait));
      }
    }
    if (shuttingDown) return;
    ready = true;
    if (config.jobsEnabled) void startJobs(liveApp, () => shuttingDown, log);
    printBanner(config, seeded);
  } catch (err) {
    if (err instanceof ConfigError) process.stderr.write(`${err.message}\n`);
    log.fatal({ err }, '启动失败');
    await shutdown('startup failure', 1);
  }
}

/**
 * Starts the job queue's workers, cron and maintenance; should the database fail it meanwhile, logs and tries again
 * with a growing delay (the server serves on: only the jobs wait).
 */
async function startJobs(app: FastifyInstance, stopping: () => boolean, log: pino.Logger): Promise<void> {
  for (let attempt = 0; !stopping(); attempt++) {
    try {
      await app.jobs.start();
      return;
    } catch (err) {
      const wait = Math.min(MAX_PREPARE_DELAY_MS, FIRST_PREPARE_DELAY_MS * 2 ** Math.min(attempt, 10));
      log.error({ err }, `任务队列启动失败，${wait} ms 后重试 / job queue failed to start, retrying in ${wait} ms`);
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

type DatabaseTarget = {
  embedded: SupervisedEmbeddedPostgres | undefined;
  /** The app's connection: a role that owns no table (ADR 0015). */
  appUrl: string;
  /** The owner's connection the migrations run as. */
  ownerUrl: string;
  /** The role whose grants the migrations rebuild; undefined when the app connects as the owner. */
  appRole: string | undefined;
  replicaUrl: string | undefined;
};

/**
 * Which database, as whom (ADR 0015). Embedded: the cluster's superuser migrates, the app connects as its own role
 * (created with a generated password under DATA_DIR). External: DATABASE_URL is the app's connection and
 * DATABASE_OWNER_URL the migrations'; without the latter both are DATABASE_URL, the app then runs as the owner.
 */
async function resolveDatabase(config: AppConfig, log: pino.Logger): Promise<DatabaseTarget> {
  if (!config.databaseUrl) {
    const appRole = config.databaseAppRole ?? DEFAULT_APP_ROLE;
    // supervised: should the postmaster die, it is restarted (with backoff) and the server carries on
    const embedded = await superviseEmbeddedPostgres({
      dataDir: path.join(config.dataDir, 'pg'),
      port: config.embeddedPgPort,
      appRole,
      logger: {
        info: (msg: string) => log.info(msg),
        warn: (msg: string) => log.warn(msg),
        error: (msg: string) => log.error(msg),
      },
    });
    return {
      embedded,
      appUrl: embedded.appConnectionString,
      ownerUrl: embedded.connectionString,
      appRole,
      replicaUrl: config.databaseReplicaUrl,
    };
  }
  const appUrl = config.databaseUrl;
  const ownerUrl = config.databaseOwnerUrl ?? appUrl;
  const appUser = decodeURIComponent(new URL(appUrl).username);
  const ownerUser = decodeURIComponent(new URL(ownerUrl).username);
  const separate = config.databaseOwnerUrl !== undefined && appUser !== ownerUser;
  return {
    embedded: undefined,
    appUrl,
    ownerUrl,
    appRole: separate ? (config.databaseAppRole ?? appUser) : undefined,
    replicaUrl: config.databaseReplicaUrl,
  };
}

/** A warning in the log when the app's own connection could switch the audit trail's protection off. */
async function warnIfAppRoleIsPrivileged(pool: pg.Pool, log: pino.Logger): Promise<void> {
  const { rows } = await pool.query<{ role: string; superuser: boolean; owns: boolean }>(
    `SELECT current_user AS role, r.rolsuper AS superuser,
            EXISTS (SELECT 1 FROM pg_class c WHERE c.relowner = r.oid AND c.relnamespace = 'public'::regnamespace) AS owns
       FROM pg_roles r WHERE r.rolname = current_user`,
  );
  const row = rows[0];
  if (row && (row.superuser || row.owns)) {
    log.warn(
      `应用的数据库角色 ${row.role} ${row.superuser ? '是超级用户' : '拥有数据表'}，可绕过审计日志的只追加保护 / the app's ` +
        `database role ${row.role} ${row.superuser ? 'is a superuser' : 'owns tables'}: it could bypass the audit ` +
        "trail's append-only trigger (docs/adr/0015-app-database-role.md)",
    );
  }
}

/** Arbitrary constant key of the advisory lock under which one instance at a time loads reference and demo data. */
const STARTUP_LOCK_KEY = 724_310_002;

/** Runs `fn` while holding a session advisory lock: instances started together load the seed data one by one. */
async function withStartupLock<T>(pool: pg.Pool, fn: () => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
    try {
      return await fn();
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [STARTUP_LOCK_KEY]).catch(() => {
        broken = true; // the connection is gone, and the lock with it
      });
    }
  } catch (err) {
    broken = true;
    throw err;
  } finally {
    client.release(broken);
  }
}

void main();
