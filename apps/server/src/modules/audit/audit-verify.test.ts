import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYS_TENANT_CODE } from '@registry/shared/constants';
import { BUILT_IN_ROLES } from '@registry/shared/roles';
import { buildTenant, buildUser } from '../../../test/factories';
import { createBareTestApp, type TestApp } from '../../../test/test-app';
import { formatChainReport, verifyAllAuditChains } from './audit-verify';

const script = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../scripts/audit-verify.ts');
const run = promisify(execFile);

let t: TestApp;
let h001: string;
let p001: string;
let sys: string;
let sysAdmin: Awaited<ReturnType<typeof buildUser>>;
beforeAll(async () => {
  t = await createBareTestApp();
  h001 = (await buildTenant(t.db, { code: 'h001' })).tenant.id;
  p001 = (await buildTenant(t.db, { code: 'p001', type: 'PERSONAL' })).tenant.id;
  sys = (await buildTenant(t.db, { code: SYS_TENANT_CODE, name: '系统租户', type: 'SYSTEM' })).tenant.id;
  sysAdmin = await buildUser(t.db, sys, { userType: 'ADMIN', tenantRoleCode: BUILT_IN_ROLES.sysAdmin.code });
  const owner = await buildUser(t.db, h001, { tenantRoleCode: BUILT_IN_ROLES.tenantAdmin.code });
  const personal = await buildUser(t.db, p001, {
    userType: 'PERSONAL',
    tenantRoleCode: BUILT_IN_ROLES.personal.code,
  });
  for (const [user, n] of [
    [owner, 3],
    [personal, 4],
  ] as const) {
    const token = await t.login(user.username, user.password);
    for (let i = 0; i < n; i++)
      await t.api({ method: 'PUT', url: '/sys-user', token, payload: { name: `${user.username}${i}` } });
  }
});
afterAll(async () => {
  await t?.close();
});

/** What an attacker with superuser rights could do: switch the append-only trigger off, change rows, switch it on. */
async function tamper(statement: string, params: unknown[] = []) {
  // the owner: the app's own role may not touch the trigger (ADR 0015)
  const client = await t.database.ownerPool().connect();
  try {
    await client.query('alter table audit_events disable trigger audit_events_no_update_delete');
    await client.query(statement, params);
    await client.query('alter table audit_events enable trigger audit_events_no_update_delete');
  } finally {
    client.release();
  }
}

async function ids(tenantId: string): Promise<number[]> {
  const { rows } = await t.database.pool.query<{ id: string }>(
    'select id from audit_events where tenant_id = $1 order by id',
    [tenantId],
  );
  return rows.map((r) => Number(r.id));
}

async function runCommand(): Promise<{ code: number; stdout: string }> {
  const env = { PATH: process.env.PATH ?? '', DATABASE_URL: t.database.connectionString, DATA_DIR: t.dataDir };
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', script], { env, timeout: 60_000 });
    return { code: 0, stdout };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

describe('audit chain verification', () => {
  it('should report OK with the number of events for every tenant when nothing was touched', async () => {
    const results = await verifyAllAuditChains(t.db);
    const h = results.find((r) => r.tenantId === h001);
    expect(h).toMatchObject({ ok: true, tenantCode: 'h001' });
    expect(h?.events).toBe((await ids(h001)).length);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(formatChainReport(results)).toContain(`h001 ${h001}: OK ${h?.events} events`);
    const cli = await runCommand();
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain(`h001 ${h001}: OK`);
  });

  it('should name exactly the edited event when one row was changed in SQL', async () => {
    const target = (await ids(h001))[2];
    await tamper(`update audit_events set new_value = '{"name":"篡改后"}' where id = $1`, [target]);
    const h = (await verifyAllAuditChains(t.db)).find((r) => r.tenantId === h001);
    expect(h?.ok).toBe(false);
    expect(h?.firstBreak?.eventId).toBe(target);
    expect(h?.firstBreak?.detail).toContain('内容已被修改');
    expect(h?.firstBreak?.at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('should name the event after a deleted one when a row was removed in SQL', async () => {
    const before = await ids(p001);
    expect((await verifyAllAuditChains(t.db)).find((r) => r.tenantId === p001)?.ok).toBe(true);
    const removed = before[1];
    await tamper('delete from audit_events where id = $1', [removed]);
    const p = (await verifyAllAuditChains(t.db)).find((r) => r.tenantId === p001);
    expect(p?.ok).toBe(false);
    expect(p?.firstBreak?.eventId).toBe(before[2]);
    expect(p?.firstBreak?.detail).toContain('前一事件缺失');
  });

  it('should report the chain head when the newest event was removed', async () => {
    const token = await t.login(sysAdmin.username, sysAdmin.password);
    await t.api({ method: 'PUT', url: '/sys-user', token, payload: { name: '管理员甲' } });
    const before = await ids(sys);
    await tamper('delete from audit_events where id = $1', [before.at(-1)]);
    const s = (await verifyAllAuditChains(t.db)).find((r) => r.tenantId === sys);
    expect(s?.ok).toBe(false);
    expect(s?.firstBreak?.eventId).toBe(before.at(-2));
    expect(s?.firstBreak?.detail).toContain('链头');
  });

  it('should exit 1 and print each broken tenant with its first broken link when run as a command', async () => {
    const cli = await runCommand();
    expect(cli.code).toBe(1);
    expect(cli.stdout).toMatch(new RegExp(`h001 ${h001}: BROKEN at event ${(await ids(h001))[2]} `));
    expect(cli.stdout).toMatch(/p001 .*: BROKEN at event \d+ /);
  });
});
