import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditSealKeyFile } from '../../lib/audit-seal-key';
import { testSealer } from '../../../test/audit-seal';
import { buildTenant, buildUser } from '../../../test/factories';
import { createBareTestApp, type TestApp } from '../../../test/test-app';
import { formatSealReport, type TenantSealResult } from './audit-verify';

const script = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../scripts/audit-verify.ts');
const run = promisify(execFile);

let t: TestApp;
let sealer: Awaited<ReturnType<typeof testSealer>>;
/** One tenant per kind of tampering, so each chain shows exactly its own. */
const tenant = { edited: '', deleted: '', reordered: '', truncated: '', inserted: '', signed: '', untouched: '' };

/** Profile saves of a new user of the tenant (real audited calls); `sealEach` seals after every one. */
async function activity(tenantId: string, saves: number, sealEach = false) {
  const user = await buildUser(t.db, tenantId);
  const token = await t.login(user.username, user.password);
  for (let i = 0; i < saves; i++) {
    const res = await t.api({ method: 'PUT', url: '/sys-user', token, payload: { name: `${user.username}-${i}` } });
    expect(res.statusCode).toBe(200);
    if (sealEach) await sealer.sealAll();
  }
}

beforeAll(async () => {
  t = await createBareTestApp();
  sealer = await testSealer(t);
  for (const kind of Object.keys(tenant) as (keyof typeof tenant)[]) {
    tenant[kind] = (await buildTenant(t.db)).tenant.id;
    await activity(tenant[kind], 4, kind === 'truncated');
  }
  await sealer.sealAll();
});
afterAll(async () => {
  await t?.close();
});

/**
 * What a database superuser can do: with `session_replication_role = replica` no ordinary trigger fires, so the
 * append-only triggers do not stop the statements.
 */
async function tamper(statements: [string, unknown[]?][]) {
  // the owner (a superuser here): the app's own role may not switch triggers off (ADR 0015)
  const client = await t.database.ownerPool().connect();
  try {
    await client.query('set session_replication_role = replica');
    for (const [statement, params] of statements) await client.query(statement, params ?? []);
  } finally {
    await client.query('reset session_replication_role');
    client.release();
  }
}

async function eventIds(tenantId: string): Promise<number[]> {
  const { rows } = await t.database.pool.query<{ id: string }>(
    'select id::text as id from audit_events where tenant_id = $1 order by tx_id, id',
    [tenantId],
  );
  return rows.map((r) => Number(r.id));
}

async function chainOf(tenantId: string): Promise<TenantSealResult> {
  const found = (await sealer.verify()).find((r) => r.tenantId === tenantId);
  if (!found) throw new Error(`no chain of ${tenantId}`);
  return found;
}

async function runCommand(): Promise<{ code: number; stdout: string }> {
  const key = (JSON.parse(await readFile(auditSealKeyFile(t.dataDir), 'utf8')) as { key: string }).key;
  const env = {
    PATH: process.env.PATH ?? '',
    DATABASE_URL: t.database.connectionString,
    DATA_DIR: t.dataDir,
    AUDIT_SEAL_KEY: key,
  };
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', script], { env, timeout: 60_000 });
    return { code: 0, stdout };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

describe('audit seal verification', () => {
  it('should report every event of an untouched chain as sealed and valid, and the command should exit 0', async () => {
    const results = await sealer.verify();
    const ids = await eventIds(tenant.untouched);
    expect(await chainOf(tenant.untouched)).toMatchObject({ ok: true, sealed: ids.length, unsealed: 0, problems: [] });
    expect(results.every((r) => r.ok)).toBe(true);
    const cli = await runCommand();
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain(`${tenant.untouched}: OK sealed ${ids.length}, unsealed 0`);
  });

  it('should count an event not sealed yet as unsealed, never as valid', async () => {
    const before = await chainOf(tenant.untouched);
    await activity(tenant.untouched, 1);
    const after = await chainOf(tenant.untouched);
    expect(after).toMatchObject({ ok: true, sealed: before.sealed, unsealed: 2 });
    await sealer.sealAll();
    expect(await chainOf(tenant.untouched)).toMatchObject({ ok: true, sealed: before.sealed + 2, unsealed: 0 });
  });

  it('should name exactly the edited event when a sealed row was changed in SQL', async () => {
    const target = (await eventIds(tenant.edited))[2];
    await tamper([[`update audit_events set new_value = '{"name":"篡改后"}' where id = $1`, [target]]]);
    const chain = await chainOf(tenant.edited);
    expect(chain.ok).toBe(false);
    expect(chain.problems).toEqual([expect.objectContaining({ kind: 'edited', eventId: target })]);
    expect(chain.problems[0]?.detail).not.toContain('篡改后');
  });

  it('should name the deleted event when a sealed row was removed in SQL', async () => {
    const target = (await eventIds(tenant.deleted))[1];
    await tamper([['delete from audit_events where id = $1', [target]]]);
    const chain = await chainOf(tenant.deleted);
    expect(chain.problems).toEqual([expect.objectContaining({ kind: 'deleted', eventId: target })]);
  });

  it('should tell a swap of two sealed events from an edit', async () => {
    const ids = await eventIds(tenant.reordered);
    const [a, b] = [ids[1], ids[3]];
    const columns = [
      'tx_id',
      'tenant_id',
      'project_id',
      'actor_id',
      'at',
      'action',
      'entity_type',
      'entity_id',
      'old_value',
      'new_value',
      'reason',
      'request_id',
      'ip',
    ];
    await tamper([
      [
        `update audit_events x set ${columns.map((c) => `${c} = y.${c}`).join(', ')}
         from audit_events y where (x.id, y.id) in (($1::bigint, $2::bigint), ($2::bigint, $1::bigint))`,
        [a, b],
      ],
    ]);
    const chain = await chainOf(tenant.reordered);
    expect(chain.problems.map((p) => [p.kind, p.eventId])).toEqual([
      ['reordered', a],
      ['reordered', b],
    ]);
  });

  it('should find a removed tail (events, seals and head rows) only by the head kept outside the database', async () => {
    const ids = await eventIds(tenant.truncated);
    const { rows: seals } = await t.database.pool.query<{ event_id: string; seq: string }>(
      'select event_id::text, seq::text from audit_seals where tenant_key = $1 order by seq',
      [tenant.truncated],
    );
    expect(seals.map((s) => Number(s.event_id))).toEqual(ids);
    const keep = seals.length - 2;
    const gone = ids.slice(keep);
    // the attacker leaves a consistent database: the head of the remaining chain is a real signed head
    const { rows: heads } = await t.database.pool.query<{ seq: string }>(
      'select seq::text from audit_seal_heads where tenant_key = $1 and seq = $2',
      [tenant.truncated, keep],
    );
    expect(heads).toHaveLength(1);
    await tamper([
      ['delete from audit_events where id = any($1::bigint[])', [gone]],
      ['delete from audit_seals where event_id = any($1::bigint[])', [gone]],
      ['delete from audit_seal_heads where tenant_key = $1 and seq > $2', [tenant.truncated, keep]],
    ]);
    const chain = await chainOf(tenant.truncated);
    expect(chain.sealed).toBe(keep);
    expect(chain.problems).toEqual([expect.objectContaining({ kind: 'truncated', seq: seals.length })]);
    expect(chain.problems[0]?.detail).toContain('库外链头');
  });

  it('should flag an unsealed event older than the sealed ones (inserted afterwards)', async () => {
    const [first] = await eventIds(tenant.inserted);
    await tamper([
      [
        `insert into audit_events (tenant_id, action, entity_type, tx_id)
         select tenant_id, 'user.update', 'user', tx_id from audit_events where id = $1`,
        [first],
      ],
    ]);
    const chain = await chainOf(tenant.inserted);
    expect(chain.problems).toEqual([expect.objectContaining({ kind: 'inserted' })]);
    expect(chain.unsealed).toBe(1);
  });

  it('should refuse a head outside the database whose signature is not the key’s', async () => {
    // the app's object storage: the local directory DATA_DIR/files
    const file = path.join(t.dataDir, 'files', 'audit-heads', `${tenant.signed}.json`);
    const head = JSON.parse(await readFile(file, 'utf8')) as { seq: number };
    await writeFile(file, JSON.stringify({ ...head, seq: head.seq + 5 }));
    const chain = await chainOf(tenant.signed);
    expect(chain.problems).toEqual([expect.objectContaining({ kind: 'bad-head-signature' })]);
  });

  it('should exit 1 and print each tampered chain with its problems when run as a command', async () => {
    const results = await sealer.verify();
    expect(results.find((r) => r.tenantId === tenant.untouched)?.ok).toBe(true);
    expect(formatSealReport(results).join('\n')).toMatch(new RegExp(`${tenant.edited}: BROKEN`));
    const cli = await runCommand();
    expect(cli.code).toBe(1);
    for (const kind of ['edited', 'deleted', 'reordered', 'truncated', 'inserted'] as const)
      expect(cli.stdout).toMatch(new RegExp(`${tenant[kind]}: BROKEN[^\\n]*\\n  - ${kind}`));
    expect(cli.stdout).toContain(`${tenant.untouched}: OK`);
  });
});
