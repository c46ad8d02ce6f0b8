import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_ROLES } from '@registry/shared/roles';
import { buildTenant, buildUser } from '../../test/factories';
import { createBareTestApp, type TestApp } from '../../test/test-app';
import { verifyAuditChain } from './audit-chain';

let t: TestApp;
let h001: string;
let p001: string;
/** Five accounts of the hospital, signed in. */
let tokens: string[];
let personal: string;
beforeAll(async () => {
  t = await createBareTestApp();
  h001 = (await buildTenant(t.db)).tenant.id;
  p001 = (await buildTenant(t.db, { type: 'PERSONAL' })).tenant.id;
  const doctors = await Promise.all([0, 1, 2, 3, 4].map(() => buildUser(t.db, h001)));
  tokens = await Promise.all(doctors.map((u) => t.login(u.username, u.password)));
  const me = await buildUser(t.db, p001, { userType: 'PERSONAL', tenantRoleCode: BUILT_IN_ROLES.personal.code });
  personal = await t.login(me.username, me.password);
});
afterAll(async () => {
  await t?.close();
});

/** What an attacker with database superuser rights could do: switch the append-only trigger off and edit. */
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

describe('audit hash chain', () => {
  it('should chain concurrent events of a tenant without forking', async () => {
    await Promise.all(
      tokens.flatMap((token, i) =>
        [0, 1, 2].map((j) => t.api({ method: 'PUT', url: '/sys-user', token, payload: { name: `并发${i}-${j}` } })),
      ),
    );
    const report = await verifyAuditChain(t.db, h001);
    expect(report.ok).toBe(true);
    expect(report.events).toBeGreaterThanOrEqual(20);
  });

  it('should detect an edited event', async () => {
    const token = tokens[1] ?? '';
    await t.api({ method: 'PUT', url: '/sys-user', token, payload: { name: '篡改前' } });
    const { rows } = await t.database.pool.query<{ id: string }>(
      "select id from audit_events where action = 'user.update' and new_value->>'name' = '篡改前'",
    );
    const id = Number(rows[0]?.id);
    await tamper(`update audit_events set new_value = '{"name":"篡改后"}' where id = $1`, [id]);
    const report = await verifyAuditChain(t.db, h001);
    expect(report.ok).toBe(false);
    expect(report.alteredId).toBe(id);
  });

  it('should detect a removed event', async () => {
    const token = personal;
    await t.api({ method: 'PUT', url: '/sys-user', token, payload: { name: '第一次' } });
    await t.api({ method: 'PUT', url: '/sys-user', token, payload: { name: '第二次' } });
    expect((await verifyAuditChain(t.db, p001)).ok).toBe(true);
    await tamper(`delete from audit_events where tenant_id = $1 and new_value->>'name' = '第一次'`, [p001]);
    const report = await verifyAuditChain(t.db, p001);
    expect(report).toMatchObject({ ok: false, brokenLinks: true });
  });
});
