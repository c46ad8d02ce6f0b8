import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, users } from '../../db/schema';
import { buildTenant, buildUser, hospital, signedInUser, type Account } from '../../../test/factories';
import { createBareTestApp, type TestApp } from '../../../test/test-app';

type Body<T = unknown> = { status: number; message: string; data: T };

let t: TestApp;
let owner: string;
let ownerId: string;
let nurse: Awaited<ReturnType<typeof buildUser>>;
let nurseId: string;
let entry: Account;
let foreignUserId: string;

beforeAll(async () => {
  t = await createBareTestApp();
  const h = await hospital(t, { admin: { name: '王主任' } });
  owner = h.admin.token;
  ownerId = h.admin.id;
  // Two accounts whose name holds '录入' and two whose name does not.
  entry = await signedInUser(t, h.tenantId, { username: 'entry', name: '张录入' });
  await buildUser(t.db, h.tenantId, { username: 'entry2', name: '孙录入' });
  nurse = await buildUser(t.db, h.tenantId, { username: 'nurse', name: '李护士' });
  nurseId = nurse.id;
  await buildUser(t.db, h.tenantId, { username: 'monitor', name: '赵监查' });
  const other = await buildTenant(t.db);
  foreignUserId = (await buildUser(t.db, other.tenant.id)).id;
});
afterAll(async () => {
  await t?.close();
});

const post = (url: string, token: string, payload: Record<string, unknown>) =>
  t.api({ method: 'POST', url, token, payload });

describe('sys-user accounts', () => {
  it("should page the acting tenant's accounts for a tenant administrator", async () => {
    const res = await post('/sys-user/page', owner, { keyword: '录入' });
    expect(res.statusCode).toBe(200);
    const page = res.json<Body<{ records: { username: string; disabled: boolean }[]; total: number }>>().data;
    expect(page.records.map((r) => r.username).sort()).toEqual(['entry', 'entry2']);
    expect(page.total).toBe(2);
    expect(JSON.stringify(page)).not.toContain('passwordHash');
  });

  it('should end the sessions of a disabled account at once and refuse its sign-in, then allow it again once enabled', async () => {
    const token = await t.login('nurse', nurse.password);
    expect((await t.api({ method: 'GET', url: '/sys-user/user-info', token })).statusCode).toBe(200);
    const res = await post('/sys-user/disable', owner, { userId: nurseId });
    expect(res.statusCode).toBe(200);
    expect((await t.api({ method: 'GET', url: '/sys-user/user-info', token })).statusCode).toBe(401);
    const login = await t.api({
      method: 'POST',
      url: '/auth/login',
      payload: { loginType: 'password', username: 'nurse', password: nurse.password },
    });
    expect(login.json<Body>().message).toBe('账号已停用');
    const doctors = await t.api({ method: 'POST', url: '/sys-user/page', token: owner, payload: { disabled: true } });
    expect(doctors.json<Body<{ records: { username: string }[] }>>().data.records.map((r) => r.username)).toEqual([
      'nurse',
    ]);

    expect((await post('/sys-user/enable', owner, { userId: nurseId })).statusCode).toBe(200);
    expect((await t.login('nurse', nurse.password)).length).toBeGreaterThan(20);
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, nurseId));
    expect(events.map((e) => e.action)).toEqual(expect.arrayContaining(['user.disable', 'user.enable']));
    expect(events.find((e) => e.action === 'user.disable')?.newValue).toMatchObject({
      disabled: true,
      revokedSessions: 1,
    });
  });

  it('should refuse 403 to a user without user.manage and 400 to a bad id', async () => {
    expect((await post('/sys-user/disable', entry.token, { userId: nurseId })).statusCode).toBe(403);
    const bad = await post('/sys-user/disable', owner, { userId: 'abc' });
    expect(bad.statusCode).toBe(400);
  });

  it("should answer another tenant's account exactly like a missing one and refuse disabling oneself", async () => {
    const foreign = await post('/sys-user/disable', owner, { userId: foreignUserId });
    const random = await post('/sys-user/disable', owner, { userId: randomUUID() });
    expect(foreign.statusCode).toBe(404);
    expect({ ...foreign.json<Body>(), requestId: '' }).toEqual({ ...random.json<Body>(), requestId: '' });
    const self = await post('/sys-user/disable', owner, { userId: ownerId });
    expect(self.statusCode).toBe(409);
    expect(self.json<Body>().message).toBe('不能停用自己的账号');
    const [foreignRow] = await t.db.select().from(users).where(eq(users.id, foreignUserId));
    expect(foreignRow?.disabled).toBe(false);
  });
});
