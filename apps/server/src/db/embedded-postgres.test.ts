import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../test/free-port';
import {
  appPasswordFilePath,
  DEFAULT_EMBEDDED_PG_SYSTEM_USER,
  passwordFilePath,
  startEmbeddedPostgres,
  type EmbeddedPostgres,
} from './embedded-postgres';
import { superviseEmbeddedPostgres } from './embedded-postgres-supervisor';

type Logged = { level: 'info' | 'warn' | 'error'; msg: string };

function recordingLogger() {
  const lines: Logged[] = [];
  return {
    lines,
    logger: {
      info: (msg: string) => lines.push({ level: 'info', msg }),
      warn: (msg: string) => lines.push({ level: 'warn', msg }),
      error: (msg: string) => lines.push({ level: 'error', msg }),
    },
  };
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

function postmasterPid(dataDir: string): number {
  return Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
}

function processUid(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const uidLine = status.split('\n').find((l) => l.startsWith('Uid:'));
  return Number(uidLine?.split(/\s+/)[1]);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function waitFor(condition: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return condition();
}

const runningAsRoot = process.getuid?.() === 0;

/** The machine's PostgreSQL at 127.0.0.1:5432, when it accepts the superuser without a password (CI). */
const systemPostgresTrusts = await query('postgres://postgres@127.0.0.1:5432/postgres', 'SELECT 1').then(
  () => true,
  () => false,
);

describe('the app role of the embedded database', () => {
  let root: string;
  const started: EmbeddedPostgres[] = [];
  afterAll(async () => {
    await Promise.all(started.map((s) => s.stop()));
    if (root) await fs.rm(root, { recursive: true, force: true });
  });

  it('should create it with a private generated password, connect the app as it, and narrow it again at each start', async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'registry-epg-role-'));
    await fs.chmod(root, 0o755);
    const dataDir = path.join(root, 'pg');
    const port = await findFreePort();
    const start = async () => {
      const s = await startEmbeddedPostgres({
        dataDir,
        port,
        appRole: 'registry_app_t',
        logger: recordingLogger().logger,
      });
      started.push(s);
      return s;
    };
    let pgServer = await start();
    const file = appPasswordFilePath(dataDir);
    expect(path.dirname(file)).toBe(root);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    const password = (await fs.readFile(file, 'utf8')).trim();
    expect(new URL(pgServer.appConnectionString).username).toBe('registry_app_t');
    expect(decodeURIComponent(new URL(pgServer.appConnectionString).password)).toBe(password);
    const who = async () =>
      (
        await query<{ user: string; superuser: boolean }>(
          pgServer.appConnectionString,
          'SELECT current_user AS user, rolsuper AS superuser FROM pg_roles WHERE rolname = current_user',
        )
      )[0];
    expect(await who()).toEqual({ user: 'registry_app_t', superuser: false });

    // someone widens the role by hand; the next start narrows it and keeps the password
    await query(pgServer.adminConnectionString, 'ALTER ROLE registry_app_t SUPERUSER CREATEROLE');
    await pgServer.stop();
    pgServer = await start();
    expect((await fs.readFile(file, 'utf8')).trim()).toBe(password);
    expect(await who()).toEqual({ user: 'registry_app_t', superuser: false });
    const [role] = await query<{ rolcreaterole: boolean }>(
      pgServer.adminConnectionString,
      "SELECT rolcreaterole FROM pg_roles WHERE rolname = 'registry_app_t'",
    );
    expect(role?.rolcreaterole).toBe(false);
  });
});

describe('startEmbeddedPostgres', () => {
  let root: string;
  let dataDir: string;
  let port: number;
  let db: EmbeddedPostgres | undefined;
  const started: EmbeddedPostgres[] = [];
  const log = recordingLogger();

  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'registry-epg-test-'));
    await fs.chmod(root, 0o755);
    dataDir = path.join(root, 'pg');
    port = await findFreePort();
    db = await startEmbeddedPostgres({ dataDir, port, logger: log.logger });
    started.push(db);
  });

  afterAll(async () => {
    await Promise.all(started.map((s) => s.stop()));
    await fs.rm(root, { recursive: true, force: true });
  });

  it('should round-trip Chinese text when a new cluster is initialised', async () => {
    if (!db) throw new Error('not started');
    const [row] = await query<{ v: string; enc: string }>(
      db.connectionString,
      "SELECT '患者张三' AS v, current_setting('server_encoding') AS enc",
    );
    expect(row).toEqual({ v: '患者张三', enc: 'UTF8' });
    expect(log.lines.some((l) => l.msg.includes('initialised a new PostgreSQL cluster'))).toBe(true);
    await query(db.connectionString, 'CREATE TABLE patient (id serial PRIMARY KEY, name text NOT NULL)');
    await query(db.connectionString, 'INSERT INTO patient (name) VALUES ($1), ($2)', ['患者张三', '李四（随访）']);
    const rows = await query<{ name: string; len: number }>(
      db.connectionString,
      'SELECT name, char_length(name) AS len FROM patient ORDER BY id',
    );
    expect(rows).toEqual([
      { name: '患者张三', len: 4 },
      { name: '李四（随访）', len: 6 },
    ]);
  });

  it('should create the application database and the builtin C.UTF-8 locale when initialised', async () => {
    if (!db) throw new Error('not started');
    expect(new URL(db.connectionString).pathname).toBe('/registry');
    const rows = await query<{ datname: string; provider: string; locale: string | null }>(
      db.adminConnectionString,
      "SELECT datname, datlocprovider AS provider, datlocale AS locale FROM pg_database WHERE datname = 'registry'",
    );
    expect(rows).toEqual([{ datname: 'registry', provider: 'b', locale: 'C.UTF-8' }]);
  });

  it('should listen on loopback only and require a password when started', async () => {
    if (!db) throw new Error('not started');
    const [row] = await query<{ addr: string; sock: string }>(
      db.adminConnectionString,
      "SELECT current_setting('listen_addresses') AS addr, current_setting('unix_socket_directories') AS sock",
    );
    expect(row).toEqual({ addr: '127.0.0.1', sock: '' });
    const noPassword = new URL(db.adminConnectionString);
    noPassword.password = 'wrong';
    await expect(query(noPassword.toString(), 'SELECT 1')).rejects.toThrow(/password authentication failed/);
  });

  it('should keep the password file and the data directory private when initialised', async () => {
    const pwStat = await fs.stat(passwordFilePath(dataDir));
    expect(pwStat.mode & 0o777).toBe(0o600);
    expect(pwStat.uid).toBe(process.getuid?.());
    const dirStat = await fs.stat(dataDir);
    expect(dirStat.mode & 0o777).toBe(0o700);
    if (runningAsRoot) expect(dirStat.uid).not.toBe(0);
  });

  it('should run the postmaster as a non-root user when the server runs as root', async () => {
    const uid = processUid(postmasterPid(dataDir));
    if (runningAsRoot) {
      expect(uid).not.toBe(0);
      const passwd = readFileSync('/etc/passwd', 'utf8');
      const entry = passwd.split('\n').find((l) => l.startsWith(`${DEFAULT_EMBEDDED_PG_SYSTEM_USER}:`));
      expect(entry?.split(':')[2]).toBe(String(uid));
      expect(entry?.split(':')[6]).toBe('/usr/sbin/nologin');
    } else {
      expect(uid).toBe(process.getuid?.());
    }
  });

  it('should refuse a second start with a clear message when the data directory is in use', async () => {
    const other = await findFreePort();
    await expect(startEmbeddedPostgres({ dataDir, port: other, logger: log.logger })).rejects.toThrow(
      /数据目录正被另一个运行中的 PostgreSQL 进程（PID \d+）使用.*in use by a running PostgreSQL process/s,
    );
    // the first server is unharmed
    if (!db) throw new Error('not started');
    await expect(query(db.connectionString, 'SELECT 1 AS ok')).resolves.toEqual([{ ok: 1 }]);
  });

  it('should resolve exited as expected and free the port when stop() is called', async () => {
    if (!db) throw new Error('not started');
    const pid = postmasterPid(dataDir);
    await db.stop();
    await expect(db.exited).resolves.toEqual({ code: 0, signal: null, expected: true });
    expect(isAlive(pid)).toBe(false);
    await expect(query(db.adminConnectionString, 'SELECT 1')).rejects.toThrow(/ECONNREFUSED/);
    await db.stop(); // a second stop is harmless
  });

  it('should keep the data when restarted on the same data directory', async () => {
    log.lines.length = 0;
    db = await startEmbeddedPostgres({ dataDir, port, logger: log.logger });
    started.push(db);
    // The existing cluster is started, not initialised again.
    expect(log.lines.some((l) => l.msg.includes('initialised a new PostgreSQL cluster'))).toBe(false);
    expect(log.lines.some((l) => l.msg.includes('embedded PostgreSQL ready'))).toBe(true);
    const rows = await query<{ name: string }>(db.connectionString, 'SELECT name FROM patient ORDER BY id');
    expect(rows.map((r) => r.name)).toEqual(['患者张三', '李四（随访）']);
    await db.stop();
  });

  it('should remove a stale postmaster.pid when its process is dead', async () => {
    const dead = spawn(process.execPath, ['-e', '0']);
    const deadPid = dead.pid ?? 0;
    await new Promise((r) => dead.on('exit', r));
    await fs.writeFile(path.join(dataDir, 'postmaster.pid'), `${deadPid}\n${dataDir}\n`);
    log.lines.length = 0;
    db = await startEmbeddedPostgres({ dataDir, port, logger: log.logger });
    started.push(db);
    expect(log.lines.some((l) => l.level === 'warn' && l.msg.includes('stale postmaster.pid'))).toBe(true);
    await expect(query(db.connectionString, 'SELECT count(*)::int AS n FROM patient')).resolves.toEqual([{ n: 2 }]);
    await db.stop();
  });

  it('should remove a stale postmaster.pid when its PID now belongs to a process that is not PostgreSQL', async () => {
    // PID 1 is alive but is not postgres: PostgreSQL alone would refuse to start here
    await fs.writeFile(path.join(dataDir, 'postmaster.pid'), `1\n${dataDir}\n`);
    db = await startEmbeddedPostgres({ dataDir, port, logger: log.logger });
    started.push(db);
    await expect(query(db.connectionString, 'SELECT count(*)::int AS n FROM patient')).resolves.toEqual([{ n: 2 }]);
    await db.stop();
  });

  it('should remove a postmaster.pid whose PID is a live PostgreSQL of another data directory', async () => {
    const other = await startEmbeddedPostgres({
      dataDir: path.join(root, 'other'),
      port: await findFreePort(),
      logger: log.logger,
    });
    started.push(other);
    const otherPid = postmasterPid(other.dataDir);
    await fs.writeFile(path.join(dataDir, 'postmaster.pid'), `${otherPid}\n${other.dataDir}\n`);
    db = await startEmbeddedPostgres({ dataDir, port, logger: log.logger });
    started.push(db);
    await expect(query(db.connectionString, 'SELECT count(*)::int AS n FROM patient')).resolves.toEqual([{ n: 2 }]);
    expect(isAlive(otherPid)).toBe(true);
    await Promise.all([db.stop(), other.stop()]);
  });

  it('should run PostgreSQL in its own process group when started from a terminal', async () => {
    db = await startEmbeddedPostgres({ dataDir, port, logger: log.logger });
    started.push(db);
    const pgrp = (pid: number | 'self') => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[2];
    // a Ctrl-C sent to the terminal's process group must reach Node only, which then stops PostgreSQL in order
    expect(pgrp(postmasterPid(dataDir))).not.toBe(pgrp('self'));
    await db.stop();
  });

  it('should refuse with the reason when its port is taken by another embedded PostgreSQL', async () => {
    const other = await startEmbeddedPostgres({
      dataDir: path.join(root, 'other'),
      port: await findFreePort(),
      logger: log.logger,
    });
    started.push(other);
    await expect(startEmbeddedPostgres({ dataDir, port: other.port, logger: log.logger })).rejects.toThrow(
      /端口 \d+ 是否已被占用.*could not create any TCP\/IP sockets/s,
    );
    await other.stop();
  });

  it.runIf(systemPostgresTrusts)(
    'should refuse to use a PostgreSQL of another data directory when it answers on the port',
    async () => {
      await expect(startEmbeddedPostgres({ dataDir, port: 5432, logger: log.logger })).rejects.toThrow(
        /(端口 5432 上已有另一个 PostgreSQL)|(端口 5432 是否已被占用)/,
      );
    },
  );

  it('should apply extra settings when they are given', async () => {
    const quick = await startEmbeddedPostgres({
      dataDir: path.join(root, 'quick'),
      port: await findFreePort(),
      logger: log.logger,
      settings: { fsync: 'off', work_mem: '16MB' },
    });
    started.push(quick);
    const [row] = await query<{ fsync: string; wm: string }>(
      quick.adminConnectionString,
      "SELECT current_setting('fsync') AS fsync, current_setting('work_mem') AS wm",
    );
    expect(row).toEqual({ fsync: 'off', wm: '16MB' });
    await quick.stop();
  });

  it.runIf(runningAsRoot)(
    'should refuse with a clear message when the PostgreSQL user cannot reach the data directory',
    async () => {
      const closed = path.join(root, 'closed');
      await fs.mkdir(closed, { mode: 0o700 });
      await expect(
        startEmbeddedPostgres({ dataDir: path.join(closed, 'pg'), port: await findFreePort(), logger: log.logger }),
      ).rejects.toThrow(`无法进入目录 ${closed}`);
    },
  );

  it('should resolve exited with expected=false when the postmaster is killed', async () => {
    db = await startEmbeddedPostgres({ dataDir, port, logger: log.logger });
    started.push(db);
    process.kill(postmasterPid(dataDir), 'SIGKILL');
    await expect(db.exited).resolves.toEqual({ code: null, signal: 'SIGKILL', expected: false });
    await db.stop(); // resolves at once after an unexpected exit
    // the next start recovers the killed cluster
    db = await startEmbeddedPostgres({ dataDir, port, logger: log.logger });
    started.push(db);
    await expect(query(db.connectionString, 'SELECT count(*)::int AS n FROM patient')).resolves.toEqual([{ n: 2 }]);
    await db.stop();
  });

  it('should restart a killed postmaster when supervised, keep the data, and not restart it after stop()', async () => {
    const supervised = await superviseEmbeddedPostgres(
      { dataDir, port, logger: log.logger },
      { restartDelayMs: 100, maxRestartDelayMs: 1000 },
    );
    const killed = postmasterPid(dataDir);
    process.kill(killed, 'SIGKILL');
    await expect.poll(() => supervised.restarts(), { timeout: 30_000, interval: 100 }).toBe(1);
    expect(postmasterPid(dataDir)).not.toBe(killed);
    await expect(query(supervised.connectionString, 'SELECT count(*)::int AS n FROM patient')).resolves.toEqual([
      { n: 2 },
    ]);
    expect(log.lines.some((l) => l.level === 'error' && /意外退出/.test(l.msg))).toBe(true);
    const running = postmasterPid(dataDir);
    await supervised.stop();
    expect(isAlive(running)).toBe(false);
    await new Promise((r) => setTimeout(r, 500)); // longer than the restart delay: nothing comes back
    expect(supervised.restarts()).toBe(1);
    await expect(query(supervised.connectionString, 'SELECT 1')).rejects.toThrow();
  }, 60_000);

  it('should stop PostgreSQL when the Node process that started it is killed', async () => {
    const tsx = fileURLToPath(new URL('../../../../node_modules/.bin/tsx', import.meta.url));
    const fixture = fileURLToPath(new URL('../../test/fixtures/start-embedded.ts', import.meta.url));
    const child = spawn(tsx, [fixture, path.join(root, 'orphan'), String(await findFreePort())], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const pid = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const line = out.split('\n').find((l) => l.startsWith('{'));
        if (line) resolve((JSON.parse(line) as { pid: number }).pid);
      });
      child.on('exit', (code) => reject(new Error(`fixture exited early with ${code}`)));
    });
    expect(isAlive(pid)).toBe(true);
    // tsx runs the script in a child node process; kill the whole group so the parent of PostgreSQL dies
    const grandchildren = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('PPid:'));
    const nodePid = Number(grandchildren?.split(/\s+/)[1]);
    process.kill(nodePid, 'SIGKILL');
    child.kill('SIGKILL');
    expect(await waitFor(() => !isAlive(pid), 15000)).toBe(true);
  }, 60_000); // a second Node process and a new cluster: slow on a busy machine
});
