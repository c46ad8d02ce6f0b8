import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { loadConfig, type AppConfig } from '../../config/config';
import { createStorage, type ObjectStorage } from '../../lib/storage';
import { testSealer } from '../../../test/audit-seal';
import { buildTenant, buildUser } from '../../../test/factories';
import { startS3Server, type TestS3Server } from '../../../test/s3-server';
import { createBareTestApp, type TestApp } from '../../../test/test-app';
import { createFileHeadStore, createStorageHeadStore } from './audit-head-store';

const script = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../scripts/audit-verify.ts');
const run = promisify(execFile);

/**
 * Two server instances on one database, each with its own DATA_DIR, sharing one S3 bucket: the heads the sealer of
 * one writes are the heads the other (and audit:verify run with its configuration) reads.
 */
let s3: TestS3Server;
let a: TestApp;
let b: FastifyInstance;
let bConfig: AppConfig;
let bDataDir: string;
const storages: ObjectStorage[] = [];
const sealKey = randomBytes(32).toString('base64');
/** A chain sealed before the upgrade by instance B, its head then only in B's DATA_DIR/audit-heads. */
let legacyTenant: string;

function sealerOf(t: Pick<TestApp, 'config' | 'db' | 'clock' | 'database'>) {
  const storage = createStorage(t.config.storage);
  storages.push(storage);
  return testSealer(t, storage);
}

/** Profile saves of a new user of the tenant through instance A; `seal` runs after every one. */
async function activity(tenantId: string, saves: number, seal: () => Promise<void>) {
  const user = await buildUser(a.db, tenantId);
  const token = await a.login(user.username, user.password);
  for (let i = 0; i < saves; i++) {
    const res = await a.api({ method: 'PUT', url: '/sys-user', token, payload: { name: `${user.username}-${i}` } });
    expect(res.statusCode).toBe(200);
    await seal();
  }
}

beforeAll(async () => {
  s3 = await startS3Server();
  const env = { ...s3.env('registry/'), AUDIT_SEAL_KEY: sealKey };
  a = await createBareTestApp(env);

  // before the upgrade: instance B's sealer kept the head in its own directory
  bDataDir = await mkdtemp(path.join(os.tmpdir(), 'registry-server-test-b-'));
  bConfig = loadConfig({ ...env, DATA_DIR: bDataDir, WEB_DIST: path.join(bDataDir, 'web'), JOBS_ENABLED: 'false' });
  legacyTenant = (await buildTenant(a.db)).tenant.id;
  // B's sealer as earlier versions ran it, keeping heads in its own directory; sealed until done (the sealer waits for
  // every transaction of the cluster below its horizon, other test files' too)
  const legacy = await testSealer(a, undefined, createFileHeadStore(bDataDir));
  await activity(legacyTenant, 2, async () => {
    await legacy.seal();
  });
  await legacy.sealAll();

  b = await buildApp({ config: bConfig, pool: a.database.pool, clock: a.clock });
  await b.ready();
});
afterAll(async () => {
  await b?.close();
  for (const storage of storages) storage.close();
  await a?.close();
  await s3?.close();
  if (bDataDir) await rm(bDataDir, { recursive: true, force: true });
});

async function runCommandAsB(): Promise<{ code: number; stdout: string }> {
  const env = {
    PATH: process.env.PATH ?? '',
    DATABASE_URL: a.database.connectionString,
    DATA_DIR: bDataDir,
    AUDIT_SEAL_KEY: sealKey,
    ...s3.env('registry/'),
  };
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', script], { env, timeout: 60_000 });
    return { code: 0, stdout };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

describe('audit heads shared by several instances', () => {
  it('should carry the head an instance kept in its DATA_DIR onto the shared storage when it starts', async () => {
    const fileHead = await createFileHeadStore(bDataDir).read(legacyTenant);
    expect(fileHead?.seq).toBeGreaterThan(0);
    const storage = createStorage(a.config.storage);
    storages.push(storage);
    const shared = createStorageHeadStore(storage);
    expect(await shared.read(legacyTenant)).toEqual(fileHead);
    expect(await s3.objectKeys()).toContain(`registry/audit-heads/${legacyTenant}.json`);
  });

  it('should verify on instance B (and its audit:verify) what instance A sealed, and find A’s truncated tail there', async () => {
    const sealerA = await sealerOf(a);
    const sealerB = await sealerOf({ config: bConfig, db: a.db, clock: a.clock, database: a.database });
    const tenantId = (await buildTenant(a.db)).tenant.id;
    await activity(tenantId, 4, () => sealerA.sealAll());
    await sealerA.sealAll();
    // A's heads are on the bucket, none in B's directory
    expect(await createFileHeadStore(bDataDir).list()).not.toContain(tenantId);

    const before = await sealerB.verify();
    expect(before.filter((r) => !r.ok)).toEqual([]);
    expect(before.find((r) => r.tenantId === tenantId)?.sealed).toBeGreaterThanOrEqual(4);
    const cli = await runCommandAsB();
    expect(cli.stdout).toContain(`${tenantId}: OK`);
    expect(cli.stdout).toContain(`${legacyTenant}: OK`);
    expect(cli.code).toBe(0);

    // what a database superuser can do: remove the newest two sealed events with their seals and head rows
    const { rows: seals } = await a.database.pool.query<{ event_id: string }>(
      'select event_id::text from audit_seals where tenant_key = $1 order by seq',
      [tenantId],
    );
    const keep = seals.length - 2;
    const gone = seals.slice(keep).map((s) => Number(s.event_id));
    // the owner (a superuser here): the app's own role may not switch triggers off (ADR 0015)
    const client = await a.database.ownerPool().connect();
    try {
      await client.query('set session_replication_role = replica');
      await client.query('delete from audit_events where id = any($1::bigint[])', [gone]);
      await client.query('delete from audit_seals where event_id = any($1::bigint[])', [gone]);
      await client.query('delete from audit_seal_heads where tenant_key = $1 and seq > $2', [tenantId, keep]);
    } finally {
      await client.query('reset session_replication_role');
      client.release();
    }
    const chain = (await sealerB.verify()).find((r) => r.tenantId === tenantId);
    expect(chain?.problems).toEqual([expect.objectContaining({ kind: 'truncated', seq: seals.length })]);
    const after = await runCommandAsB();
    expect(after.code).toBe(1);
    expect(after.stdout).toMatch(new RegExp(`${tenantId}: BROKEN[^\\n]*\\n  - truncated`));
  });
});
