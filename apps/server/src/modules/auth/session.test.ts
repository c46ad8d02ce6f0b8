import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, users } from '../../db/schema';
import { randomToken } from '../../lib/crypto';
import { buildTenant, buildUser } from '../../../test/factories';
import { createBareTestApp, type TestApp } from '../../../test/test-app';

type Body = { status: number; message: string; data: unknown };

let t: TestApp;
let tenantId: string;
beforeAll(async () => {
  t = await createBareTestApp({ SESSION_IDLE_MINUTES: '30', SESSION_ABSOLUTE_HOURS: '12' });
  tenantId = (await buildTenant(t.db)).tenant.id;
});

/** A new account of the test's hospital, signed in. */
const signIn = async () => {
  const user = await buildUser(t.db, tenantId);
  return t.login(user.username, user.password);
};
afterAll(async () => {
  await t?.close();
});

const userInfo = (token?: string, headers: Record<string, string> = {}) =>
  t.api({ method: 'GET', url: '/sys-user/user-info', ...(token ? { token } : {}), headers });

function expectExpired(res: { statusCode: number; json: () => unknown }) {
  expect(res.statusCode).toBe(401);
  expect(res.json()).toMatchObject({ status: 401, message: '登录已过期，请重新登录', data: null });
}

describe('sessions', () => {
  it('should answer 401 when no token is sent', async () => {
    expectExpired(await userInfo());
  });

  it('should answer 401 for a forged token and for a malformed Authorization header', async () => {
    expectExpired(await userInfo(randomToken(32)));
    expectExpired(await userInfo(undefined, { authorization: 'Basic YWRtaW46YWRtaW4=' }));
    expectExpired(await userInfo(undefined, { authorization: 'Bearer' }));
  });

  it('should not accept the token in the query string on ordinary routes', async () => {
    const token = await signIn();
    expectExpired(await t.api({ method: 'GET', url: '/sys-user/user-info', query: { access_token: token } }));
  });

  it('should end a session idle for 30 minutes', async () => {
    const token = await signIn();
    t.clock.advanceMinutes(29);
    expect((await userInfo(token)).statusCode).toBe(200);
    t.clock.advanceMinutes(29); // activity 29 minutes ago kept it alive
    expect((await userInfo(token)).statusCode).toBe(200);
    t.clock.advanceMinutes(31);
    expectExpired(await userInfo(token));
  });

  it('should end a session 12 hours after sign-in however active it is', async () => {
    const token = await signIn();
    for (let i = 0; i < 24; i++) {
      t.clock.advanceMinutes(29);
      expect((await userInfo(token)).statusCode).toBe(200);
    }
    // 24 × 29 min = 11 h 36 min
    t.clock.advanceMinutes(25);
    expectExpired(await userInfo(token));
  });

  it('should end every session of a user when the account is disabled', async () => {
    const user = await buildUser(t.db, tenantId);
    const token = await t.login(user.username, user.password);
    await t.db.update(users).set({ disabled: true }).where(eq(users.id, user.id));
    expectExpired(await userInfo(token));
  });

  it('should refuse every earlier token after a password change, including the one that changed it', async () => {
    const user = await buildUser(t.db, tenantId);
    const a = await t.login(user.username, user.password);
    const b = await t.login(user.username, user.password);
    const res = await t.api({
      method: 'POST',
      url: '/sys-user/change-pwd',
      token: a,
      payload: { password: user.password, newPassword: 'Changed2026x' },
    });
    expect(res.statusCode).toBe(200);
    expectExpired(await userInfo(a));
    expectExpired(await userInfo(b));
    expect((await userInfo(await t.login(user.username, 'Changed2026x'))).statusCode).toBe(200);
  });

  it('should write last_seen_at at most once a minute', async () => {
    const token = await signIn();
    const seen = async () => {
      const rows = await t.db.select({ at: sessions.lastSeenAt }).from(sessions).orderBy(sessions.createdAt);
      return rows.map((r) => r.at.getTime());
    };
    const before = await seen();
    t.clock.advanceMinutes(0.5);
    await userInfo(token);
    expect(await seen()).toEqual(before);
    t.clock.advanceMinutes(0.6);
    await userInfo(token);
    const after = await seen();
    expect(after.filter((v, i) => v !== before[i])).toHaveLength(1);
  });

  it('should require X-App-Code: WEB on API calls', async () => {
    const token = await signIn();
    const res = await t.api({ method: 'GET', url: '/sys-user/user-info', token, headers: { 'x-app-code': 'APP' } });
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>().message).toBe('缺少或错误的应用标识（X-App-Code）');
  });
});
