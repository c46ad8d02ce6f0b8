import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { APP_CODE } from '@registry/shared/constants';
import { ERROR_MESSAGES } from './lib/errors';
import { resolveMigrationsFolder } from './db/migrate';
import { createDb } from './db/client';
import { passwordFilePath } from './db/embedded-postgres';
import { closePool, createPool } from './db/pool';
import { seedDemo, seedReferenceData } from './db/seed';
import { createTestDatabase, type TestDatabase } from '../test/db';
import { findFreePort } from '../test/free-port';
import { asRole, dropDatabase, quoteIdent, withClient, withDatabase } from '../test/pg-admin';
import { startServerProcess, TEST_PHI_ENV, type ServerProcess } from '../test/server-process';

/**
 * Availability: a lost database connection must not kill the server. Real server processes, real
 * PostgreSQL; writers keep creating dictionaries while the connections are cut, and every write that was
 * acknowledged with 200 must be in the database afterwards.
 */

type Outcome = { code: string; status: number; body: { status?: number; message?: string; data?: unknown } | null };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn().catch(() => undefined);
});

async function seedAccounts(connectionString: string): Promise<void> {
  const pool = createPool(connectionString, { max: 2 });
  try {
    const db = createDb(pool);
    await seedReferenceData(db);
    await seedDemo(db);
  } finally {
    await closePool(pool);
  }
}

/** Signs in as the demo owner and enters the heart-failure project (dictionaries are written in a project). */
async function signIn(server: ServerProcess, connectionString: string): Promise<Record<string, string>> {
  const headers = { 'x-app-code': APP_CODE, 'content-type': 'application/json' };
  const login = await fetch(`${server.api}/auth/login`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ loginType: 'password', username: 'owner', password: 'Demo@2026' }),
  });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  const projectId = await withClient(connectionString, async (c) => {
    const { rows } = await c.query<{ id: string }>("select id from projects where code = 'HF-REG'");
    return rows[0]!.id;
  });
  const authed = { ...headers, authorization: `Bearer ${token}` };
  const { 'content-type': _json, ...get } = authed;
  const entered = await fetch(`${server.api}/web-project/change?projectId=${projectId}`, { headers: get });
  expect(entered.status).toBe(200);
  return authed;
}

/** Writers creating dictionaries one after another until `stop()`; every outcome is kept. */
function startWriters(server: ServerProcess, headers: Record<string, string>, count: number) {
  const outcomes: Outcome[] = [];
  let stopped = false;
  const writer = async (w: number) => {
    for (let i = 0; !stopped; i++) {
      const code = `avail_${w}_${i}`;
      try {
        const res = await fetch(`${server.api}/sys-field-dict`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ code, name: `可用性 ${w}-${i}` }),
        });
        const text = await res.text();
        let body: Outcome['body'] = null;
        try {
          body = JSON.parse(text) as Outcome['body'];
        } catch {
          body = null;
        }
        outcomes.push({ code, status: res.status, body });
      } catch {
        outcomes.push({ code, status: 0, body: null }); // no answer at all: the server is gone
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  };
  const running = Array.from({ length: count }, (_, w) => writer(w));
  return {
    outcomes,
    async stop() {
      stopped = true;
      await Promise.all(running);
    },
  };
}

/** The server survived, answered 200 or the 503 envelope, and kept every acknowledged write. */
async function expectNothingLost(server: ServerProcess, outcomes: Outcome[], connectionString: string) {
  expect(server.alive(), server.output().slice(-4000)).toBe(true);
  const statuses = new Set(outcomes.map((o) => o.status));
  expect(
    [...statuses].filter((s) => s !== 200 && s !== 503),
    server.output().slice(-4000),
  ).toEqual([]);
  for (const o of outcomes.filter((x) => x.status === 503)) {
    expect(o.body).toMatchObject({ status: 503, message: ERROR_MESSAGES.dbUnavailable, data: null });
  }
  const acknowledged = outcomes.filter((o) => o.status === 200).map((o) => o.code);
  expect(acknowledged.length).toBeGreaterThan(0);
  const stored = await withClient(connectionString, async (c) => {
    const { rows } = await c.query<{ code: string }>('select code from field_dicts where code = any($1)', [
      acknowledged,
    ]);
    return new Set(rows.map((r) => r.code));
  });
  expect(acknowledged.filter((code) => !stored.has(code))).toEqual([]);
}

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a lost database connection', () => {
  it('should answer 503 while backends are terminated under concurrent writers, and recover with nothing lost', async () => {
    const database: TestDatabase = await createTestDatabase();
    cleanups.push(() => database.close());
    await seedAccounts(database.connectionString);
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'registry-avail-'));
    cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
    const server = await startServerProcess({
      DATABASE_URL: database.connectionString,
      DATABASE_OWNER_URL: database.ownerConnectionString,
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      JOBS_ENABLED: 'true',
      JOBS_POLL_MS: '500',
      ...TEST_PHI_ENV,
    });
    cleanups.push(() => server.stop());
    await server.waitHealthy(180_000); // a fresh server process: slow on a busy machine
    const headers = await signIn(server, database.connectionString);

    const writers = startWriters(server, headers, 6);
    const dbName = decodeURIComponent(new URL(database.connectionString).pathname.slice(1));
    let terminated = 0;
    await withClient(database.ownerConnectionString, async (admin) => {
      for (let round = 0; round < 6; round++) {
        await delay(200);
        const { rowCount } = await admin.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [dbName],
        );
        terminated += rowCount ?? 0;
      }
    });
    await delay(300);
    const before = writers.outcomes.length;
    await expect
      .poll(() => writers.outcomes.slice(before).some((o) => o.status === 200), { timeout: 30_000 })
      .toBe(true);
    await writers.stop();

    expect(terminated).toBeGreaterThan(0);
    await expectNothingLost(server, writers.outcomes, database.connectionString);
    const health = await fetch(`${server.api}/health`, { headers: { 'x-app-code': APP_CODE } });
    expect(health.status).toBe(200);

    // the database refuses every connection: each route that needs it answers the 503 envelope, not a 500
    const { adminUrl } = inject('testDb');
    const allowConnections = (allow: boolean): Promise<void> =>
      withClient(adminUrl, async (admin) => {
        await admin.query(`alter database ${quoteIdent(dbName)} allow_connections ${allow}`);
        if (!allow)
          await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [dbName]);
      });
    await allowConnections(false);
    cleanups.push(() => allowConnections(true));
    const { 'content-type': _json, ...getHeaders } = headers;
    const publicHeaders = { 'x-app-code': APP_CODE, 'content-type': 'application/json' };
    const calls: [string, string, Record<string, string>, unknown?][] = [
      ['GET', '/health', { 'x-app-code': APP_CODE }],
      ['GET', '/sys-user/user-info', getHeaders],
      ['GET', '/sys-field-dict/list', getHeaders],
      ['POST', '/sys-field-dict', headers, { code: 'avail_refused', name: '拒绝连接时' }],
      ['POST', '/auth/login', publicHeaders, { loginType: 'password', username: 'owner', password: 'Demo@2026' }],
      ['GET', '/auth/captcha', { 'x-app-code': APP_CODE }],
    ];
    for (const [method, url, callHeaders, payload] of calls) {
      const res = await fetch(`${server.api}${url}`, {
        method,
        headers: callHeaders,
        ...(payload ? { body: JSON.stringify(payload) } : {}),
      });
      expect({ url, status: res.status, body: await res.json() }).toMatchObject({
        url,
        status: 503,
        body: { status: 503, message: ERROR_MESSAGES.dbUnavailable, data: null },
      });
    }
    await allowConnections(true);
    await server.waitHealthy(30_000);
    const again = await fetch(`${server.api}/sys-field-dict`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ code: 'avail_back', name: '恢复后' }),
    });
    expect(again.status).toBe(200);
    expect(server.alive()).toBe(true);
  }, 300_000);

  it('should restart a killed embedded PostgreSQL, answer 503 meanwhile and keep every acknowledged write', async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'registry-avail-pg-'));
    await fs.chmod(root, 0o755); // the system user PostgreSQL runs as must reach the data directory
    cleanups.push(() => fs.rm(root, { recursive: true, force: true }));
    const pgPort = await findFreePort();
    const server = await startServerProcess({
      DATA_DIR: root,
      EMBEDDED_PG_PORT: String(pgPort),
      SEED_DEMO: 'false',
      JOBS_ENABLED: 'true',
      JOBS_POLL_MS: '500',
    });
    cleanups.push(() => server.stop());
    await server.waitHealthy(240_000); // initdb, migrations and reference data: slow on a busy machine
    const dataDir = path.join(root, 'pg');
    const password = readFileSync(passwordFilePath(dataDir), 'utf8').trim();
    const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${pgPort}/registry`;
    await seedAccounts(url);
    const headers = await signIn(server, url);

    const writers = startWriters(server, headers, 6);
    await delay(300);
    const pidOf = () => Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const killed = pidOf();
    process.kill(killed, 'SIGKILL');
    // the supervisor waits before restarting: meanwhile the API answers 503
    const duringOutage = writers.outcomes.length;
    await expect
      .poll(() => writers.outcomes.slice(duringOutage).some((o) => o.status === 503), { timeout: 30_000 })
      .toBe(true);
    await server.waitHealthy(60_000);
    const after = writers.outcomes.length;
    await expect
      .poll(() => writers.outcomes.slice(after).some((o) => o.status === 200), { timeout: 30_000 })
      .toBe(true);
    await writers.stop();

    expect(pidOf()).not.toBe(killed);
    await expectNothingLost(server, writers.outcomes, url);
    // the supervisor logs the restart once the start has finished (the app role ensured too): the pool may have
    // reconnected and served writes a moment before
    await expect.poll(() => server.output(), { timeout: 30_000 }).toMatch(/嵌入式 PostgreSQL 已重启/);
  }, 400_000);
});

/** A TCP relay on `port` to the PostgreSQL of `target`: the database "comes up" when it starts listening. */
function startRelay(port: number, target: URL): Promise<{ close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const relay = net.createServer((inbound) => {
    const outbound = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [inbound, outbound]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    inbound.pipe(outbound).pipe(inbound);
    inbound.on('error', () => outbound.destroy());
    outbound.on('error', () => inbound.destroy());
  });
  return new Promise((resolve, reject) => {
    relay.once('error', reject);
    relay.listen(port, '127.0.0.1', () =>
      resolve({
        close: () =>
          new Promise<void>((done) => {
            relay.close(() => done());
            for (const socket of sockets) socket.destroy();
          }),
      }),
    );
  });
}

describe('a database that is down when the server starts', () => {
  it('should listen and answer 503, then migrate once the database answers and serve normally', async () => {
    const { adminUrl, templateDatabase } = inject('testDb');
    const dbName = `${templateDatabase}_late_${Math.random().toString(36).slice(2, 8)}`;
    await withClient(adminUrl, (c) => c.query(`create database ${quoteIdent(dbName)}`)); // empty: not migrated
    cleanups.push(() => dropDatabase(adminUrl, dbName));
    const direct = withDatabase(adminUrl, dbName);
    // the server is given a port where nothing listens yet
    const relayPort = await findFreePort();
    const viaRelay = new URL(direct);
    viaRelay.hostname = '127.0.0.1';
    viaRelay.port = String(relayPort);
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'registry-late-db-'));
    cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
    // migrated as the owner, served as the app's role: the grants come from the migrations alone (ADR 0015)
    const env = {
      DATABASE_URL: asRole(viaRelay.toString()),
      DATABASE_OWNER_URL: viaRelay.toString(),
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      ...TEST_PHI_ENV,
    };
    const server = await startServerProcess({ ...env, JOBS_ENABLED: 'true' });
    cleanups.push(() => server.stop());
    // a second instance waits for the same database: once it answers, the two migrate and load reference data one
    // after the other, and neither fails on the other's rows
    const other = await startServerProcess(env);
    cleanups.push(() => other.stop());

    const health = () => fetch(`${server.api}/health`, { headers: { 'x-app-code': APP_CODE } });
    let first: Response | undefined;
    await expect
      .poll(
        async () => {
          first = await health().catch(() => undefined);
          return first !== undefined || !server.alive();
        },
        { timeout: 180_000, interval: 200 }, // a fresh server process: slow on a busy machine
      )
      .toBe(true);
    expect(server.alive(), server.output().slice(-4000)).toBe(true);
    expect({ status: first!.status, body: await first!.json() }).toMatchObject({
      status: 503,
      body: { status: 503, message: ERROR_MESSAGES.dbUnavailable, data: null },
    });
    const publicHeaders = { 'x-app-code': APP_CODE, 'content-type': 'application/json' };
    for (const [method, url, payload] of [
      ['GET', '/auth/captcha'],
      ['GET', '/sys-user/user-info'],
      ['POST', '/auth/login', { loginType: 'password', username: 'owner', password: 'Demo@2026' }],
    ] as const) {
      const res = await fetch(`${server.api}${url}`, {
        method,
        headers: payload ? publicHeaders : { 'x-app-code': APP_CODE },
        ...(payload ? { body: JSON.stringify(payload) } : {}),
      });
      expect({ url, status: res.status, body: await res.json() }).toMatchObject({
        url,
        status: 503,
        body: { status: 503, message: ERROR_MESSAGES.dbUnavailable, data: null },
      });
    }

    // the database comes up: the server migrates by itself and serves
    const relay = await startRelay(relayPort, new URL(direct));
    cleanups.push(() => relay.close());
    await server.waitHealthy(120_000);
    await other.waitHealthy(120_000);
    const journal = JSON.parse(readFileSync(path.join(resolveMigrationsFolder(), 'meta', '_journal.json'), 'utf8')) as {
      entries: unknown[];
    };
    const applied = await withClient(direct, async (c) => {
      const { rows } = await c.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations');
      return rows[0]!.n;
    });
    expect(applied).toBe(journal.entries.length);
    await seedAccounts(direct);
    const headers = await signIn(server, direct);
    const created = await fetch(`${server.api}/sys-field-dict`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ code: 'late_db', name: '数据库晚到' }),
    });
    expect(created.status).toBe(200);
    expect(server.alive()).toBe(true);
    expect(other.alive(), other.output().slice(-4000)).toBe(true);
  }, 400_000);
});
