import { QR_KEY_HEADER } from '@registry/shared/contracts/auth';
import { APP_CODE } from '@registry/shared/constants';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTenant, buildUser } from '../test/factories';
import { createBareTestApp, type TestApp } from '../test/test-app';
import { buildApp } from './app';

type Body<T = unknown> = { status: number; message: string; data: T };

/** Two server processes on one database: the server keeps no state of its own between requests. */
let t: TestApp;
let other: FastifyInstance;
let tenantId: string;
beforeAll(async () => {
  t = await createBareTestApp({ LOGIN_MAX_FAILURES: '5' });
  tenantId = (await buildTenant(t.db)).tenant.id;
  other = await buildApp({ config: t.config, pool: t.database.pool, clock: t.clock });
  await other.ready();
});
afterAll(async () => {
  await other?.close();
  await t?.close();
});

const onOther = (url: string, token: string, method: 'GET' | 'POST' = 'GET') =>
  other.inject({
    method,
    url: `/api/cmdb-template${url}`,
    headers: { 'x-app-code': APP_CODE, authorization: `Bearer ${token}` },
  });

describe('two instances on one database', () => {
  it('should honour a session created by one instance on the other, and its logout at once', async () => {
    const owner = await buildUser(t.db, tenantId);
    const token = await t.login(owner.username, owner.password);
    expect((await onOther('/sys-user/user-info', token)).statusCode).toBe(200);
    expect((await onOther('/auth/logout', token, 'POST')).statusCode).toBe(200);
    expect((await t.api({ method: 'GET', url: '/sys-user/user-info', token })).statusCode).toBe(401);
  });

  it('should hand a QR sign-in token out once when both instances are polled at the same moment', async () => {
    const key = String((await t.api({ method: 'GET', url: '/auth/qr-code' })).headers[QR_KEY_HEADER]);
    const entry = await buildUser(t.db, tenantId);
    const phone = await t.login(entry.username, entry.password);
    await t.api({ method: 'POST', url: '/auth/qr-code/confirm', payload: { key }, token: phone });
    const polls = await Promise.all([
      t.api({ method: 'GET', url: '/auth/qr-code/status', query: { key } }),
      other.inject({
        method: 'GET',
        url: `/api/cmdb-template/auth/qr-code/status?key=${encodeURIComponent(key)}`,
        headers: { 'x-app-code': APP_CODE },
      }),
      t.api({ method: 'GET', url: '/auth/qr-code/status', query: { key } }),
    ]);
    const tokens = polls.map((p) => p.json<Body<{ token?: string }>>().data.token).filter(Boolean);
    expect(tokens).toHaveLength(1);
  });

  it('should count failures spread over both instances and sent at once: then both ask for the captcha', async () => {
    const user = await buildUser(t.db, tenantId);
    const attempt = (app: FastifyInstance, password: string) =>
      app.inject({
        method: 'POST',
        url: '/api/cmdb-template/auth/login',
        headers: { 'x-app-code': APP_CODE },
        remoteAddress: `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
        payload: { loginType: 'password', username: user.username, password },
      });
    const results = await Promise.all([t.app, other, t.app, other, t.app].map((app) => attempt(app, 'wrong-password')));
    expect(results.map((r) => r.statusCode)).toEqual([400, 400, 400, 400, 400]);
    for (const app of [t.app, other]) {
      const right = await attempt(app, user.password);
      expect(right.statusCode).toBe(400);
      expect(right.json<{ message: string }>().message).toBe('请输入验证码');
    }
  });

  it('should slow an address down on both instances once its failures through one reach the limit', async () => {
    const user = await buildUser(t.db, tenantId);
    const from = (app: FastifyInstance, password: string) =>
      app.inject({
        method: 'POST',
        url: '/api/cmdb-template/auth/login',
        headers: { 'x-app-code': APP_CODE },
        remoteAddress: '10.8.0.1',
        payload: { loginType: 'password', username: user.username, password },
      });
    for (let i = 0; i < 5; i++) expect((await from(t.app, 'wrong-password')).statusCode).toBe(400);
    // the other instance counts the same failures: even the right password waits
    const next = await from(other, user.password);
    expect(next.statusCode).toBe(429);
    expect(next.json<{ message: string }>().message).toMatch(/^登录失败次数过多，请\d+秒后再试$/);
  });
});

describe('rate limits shared by two instances', () => {
  let a: FastifyInstance;
  let b: FastifyInstance;
  beforeAll(async () => {
    // a limit of two a minute per address, on both instances
    const limit = { max: 2, timeWindow: 60_000 };
    a = await buildApp({ config: t.config, pool: t.database.pool, clock: t.clock, loginRateLimit: limit });
    b = await buildApp({ config: t.config, pool: t.database.pool, clock: t.clock, loginRateLimit: limit });
    await Promise.all([a.ready(), b.ready()]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  const call = (app: FastifyInstance, ip: string, url: string, method: 'GET' | 'POST', token?: string) =>
    app.inject({
      method,
      url: `/api/cmdb-template${url}`,
      headers: { 'x-app-code': APP_CODE, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      remoteAddress: ip,
      ...(method === 'POST' && url === '/auth/login'
        ? { payload: { loginType: 'password', username: 'nobody-here', password: 'x' } }
        : method === 'POST'
          ? { payload: { key: 'no-such-qr-key' } }
          : {}),
    });

  it('should hold a sign-in limit reached through one instance on the other', async () => {
    const ip = '10.7.0.1';
    expect((await call(a, ip, '/auth/login', 'POST')).statusCode).toBe(400);
    expect((await call(b, ip, '/auth/login', 'POST')).statusCode).toBe(400);
    for (const app of [a, b]) {
      const refused = await call(app, ip, '/auth/login', 'POST');
      expect(refused.statusCode).toBe(429);
      expect(refused.json<{ message: string }>().message).toBe('请求过于频繁，请稍后再试');
    }
    // another address is not held back
    expect((await call(b, '10.7.0.2', '/auth/login', 'POST')).statusCode).toBe(400);
  });

  it('should rate-limit the QR sign-in scan and confirm per address, across instances', async () => {
    const user = await buildUser(t.db, tenantId);
    const token = await t.login(user.username, user.password);
    for (const url of ['/auth/qr-code/scan', '/auth/qr-code/confirm']) {
      const ip = url.endsWith('scan') ? '10.7.1.1' : '10.7.1.2';
      const first = await call(a, ip, url, 'POST', token);
      const second = await call(b, ip, url, 'POST', token);
      expect([first.statusCode, second.statusCode]).not.toContain(429);
      expect((await call(a, ip, url, 'POST', token)).statusCode, url).toBe(429);
    }
  });
});
