import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { redactUrl } from './plugins/request-log';
import { loadConfig } from './config/config';
import { createPool, closePool } from './db/pool';
import { randomToken } from './lib/crypto';
import { hospital, type Account } from '../test/factories';
import { createBareTestApp, type TestApp } from '../test/test-app';

type Body<T = unknown> = { status: number; message: string; data: T; requestId?: string };

describe('route table', () => {
  let routes: RouteOptions[] = [];
  let t: TestApp;
  beforeAll(async () => {
    routes = [];
    t = await createBareTestApp({}, { routeObserver: (r) => routes.push(r) });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('should give every route an access rule and a response schema', () => {
    expect(routes.length).toBeGreaterThan(20);
    const missing = routes
      .filter((r) => {
        const c = r.config as { public?: boolean; permission?: unknown } | undefined;
        const access = c?.public === true || (c !== undefined && 'permission' in c);
        const schema = (r.schema as { response?: Record<string, unknown> } | undefined)?.response?.['200'];
        return !access || !schema;
      })
      .map((r) => `${String(r.method)} ${r.url}`);
    expect(missing).toEqual([]);
  });

  it('should register every call of this issue', () => {
    const table = new Set(routes.map((r) => `${String(r.method)} ${r.url}`));
    const base = '/api/cmdb-template';
    for (const call of [
      'POST /auth/login',
      'GET /auth/login-options',
      'GET /auth/captcha',
      'GET /auth/sms',
      'GET /auth/qr-code',
      'GET /auth/qr-code/status',
      'POST /auth/qr-code/scan',
      'POST /auth/qr-code/confirm',
      'POST /auth/logout',
      'GET /auth/change',
      'GET /auth/menu',
      'GET /sys-user/user-info',
      'PUT /sys-user',
      'POST /sys-user/change-pwd',
      'POST /web-project/list',
      'POST /web-project/list/:scope',
      'GET /web-project/change',
      'GET /web-project/current',
      'GET /web-project/count',
      'POST /oss/file/upload-file',
      'POST /oss/file/upload',
      'POST /oss/file/upload-files',
      'GET /oss/file/preview/:id',
      'GET /health',
    ]) {
      const [method, url] = call.split(' ');
      expect(table.has(`${method} ${base}${url}`), call).toBe(true);
    }
    expect(table.has('GET /version.json')).toBe(true);
  });

  it('should refuse to start with a route that has no access rule', async () => {
    const config = loadConfig({ DATA_DIR: os.tmpdir() });
    const pool = createPool('postgres://nobody@127.0.0.1:1/none', { connectionTimeoutMillis: 200 });
    try {
      const app = await buildApp({ config, pool });
      expect(() => app.get('/api/cmdb-template/naked', async () => 'x')).toThrow(/no access rule/);
      await app.close();
    } finally {
      await closePool(pool);
    }
  });
});

describe('envelope and errors', () => {
  let t: TestApp;
  let owner: Account;
  beforeAll(async () => {
    t = await createBareTestApp();
    owner = (await hospital(t)).admin;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('should answer an unknown API path with a 404 envelope and a request id header', async () => {
    const res = await t.api({ method: 'POST', url: '/no/such/call', payload: {} });
    expect(res.statusCode).toBe(404);
    const body = res.json<Body>();
    expect(body).toMatchObject({ status: 404, message: '接口不存在', data: null });
    expect(res.headers['x-request-id']).toBe(body.requestId);
    const get = await t.api({ method: 'GET', url: '/no/such/call' });
    expect(get.json<Body>().message).toBe('接口不存在');
  });

  it('should answer malformed JSON with 400 in Chinese', async () => {
    const res = await t.api({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"loginType":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>().message).toBe('请求内容不是合法的 JSON');
  });

  it('should refuse text holding a NUL character with 400 instead of failing in the database', async () => {
    const token = await t.login(owner.username, owner.password);
    const res = await t.api({ method: 'POST', url: '/web-project/list', token, payload: { keyword: 'a\u0000b' } });
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>().message).toBe('请求内容包含非法字符');
    const query = await t.api({ method: 'GET', url: '/auth/change', token, query: { tenantCode: 'a\u0000' } });
    expect(query.statusCode).toBeLessThan(500);
  });

  it('should accept an empty POST labelled as a form (as some HTTP clients send it)', async () => {
    const token = await t.login(owner.username, owner.password);
    const res = await t.api({
      method: 'POST',
      url: '/web-project/list',
      token,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '0' },
      payload: '',
    });
    expect(res.statusCode).toBe(200);
    const logout = await t.api({
      method: 'POST',
      url: '/auth/logout',
      token,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '0' },
      payload: '',
    });
    expect(logout.statusCode).toBe(200);
  });

  it('should accept a POST without any body where the contract has a default', async () => {
    const token = await t.login(owner.username, owner.password);
    const res = await t.api({ method: 'POST', url: '/web-project/list', token });
    expect(res.statusCode).toBe(200);
    const login = await t.api({ method: 'POST', url: '/auth/login' });
    expect(login.statusCode).toBe(400);
    expect(login.json<Body>().message).toBe('登录方式：不能为空');
  });

  it('should treat an empty JSON body as an empty object and name the missing fields', async () => {
    const res = await t.api({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>().message).toBe('登录方式：不能为空');
  });

  it('should answer a body over the limit with 413', async () => {
    const res = await t.api({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ loginType: 'password', username: 'x', password: 'y'.repeat(1024 * 1024 + 10) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json<Body>()).toMatchObject({ status: 413, message: '请求内容过大' });
  });

  it('should report the database as healthy', async () => {
    const res = await t.api({ method: 'GET', url: '/health' });
    expect(res.json<Body>()).toMatchObject({ status: 200, data: { db: 'ok' } });
  });

  it('should serve version.json with no-cache from the start time when the web app is not built', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/version.json?timestamp=1' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(typeof res.json<{ version: string }>().version).toBe('string');
  });

  it('should mark API answers no-store', async () => {
    const token = await t.login(owner.username, owner.password);
    const res = await t.api({ method: 'GET', url: '/sys-user/user-info', token });
    expect(res.headers['cache-control']).toBe('no-store');
    const error = await t.api({ method: 'GET', url: '/sys-user/user-info' });
    expect(error.headers['cache-control']).toBe('no-store');
  });

  it('should mask access tokens (and every other query value) in logged URLs', () => {
    expect(redactUrl('/api/cmdb-template/oss/file/preview/1?access_token=abc.def&x=1')).toBe(
      '/api/cmdb-template/oss/file/preview/1?access_token=***&x=***',
    );
  });

  it('should set the helmet headers', async () => {
    const res = await t.api({ method: 'GET', url: '/auth/login-options' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(String(res.headers['content-security-policy'])).toContain("default-src 'self'");
  });
});

describe('database unavailable', () => {
  it('should answer 503 with a clear message when PostgreSQL cannot be reached', async () => {
    const pool = createPool('postgres://nobody@127.0.0.1:1/none', {
      connectionTimeoutMillis: 500,
      logger: { error: () => undefined },
    });
    const app = await buildApp({ config: loadConfig({ DATA_DIR: os.tmpdir() }), pool });
    try {
      const health = await app.inject({ method: 'GET', url: '/api/cmdb-template/health' });
      expect(health.statusCode).toBe(503);
      expect(health.json<Body>().message).toBe('数据库暂时不可用，请稍后重试');
      const call = await app.inject({
        method: 'GET',
        url: '/api/cmdb-template/sys-user/user-info',
        headers: { 'x-app-code': 'WEB', authorization: `Bearer ${randomToken()}` },
      });
      expect(call.statusCode).toBe(503);
      expect(call.json<Body>()).toMatchObject({ status: 503, message: '数据库暂时不可用，请稍后重试', data: null });
    } finally {
      await app.close();
      await closePool(pool);
    }
  });
});

describe('the built web app', () => {
  const INDEX_HTML = '<!doctype html><title>注册平台</title><div id="root"></div>';
  let t: TestApp;
  let web: string;
  beforeAll(async () => {
    web = await mkdtemp(path.join(os.tmpdir(), 'registry-web-'));
    await mkdir(path.join(web, 'assets'));
    await writeFile(path.join(web, 'index.html'), INDEX_HTML);
    await writeFile(path.join(web, 'version.json'), JSON.stringify({ version: 'build-42' }));
    await writeFile(path.join(web, 'assets', 'index-abc123.js'), 'console.log(1)');
    // What the build's precompress step writes beside each file (the contents only need to tell them apart here).
    await writeFile(path.join(web, 'assets', 'index-abc123.js.br'), brotliCompressSync('console.log(1)'));
    await writeFile(path.join(web, 'assets', 'index-abc123.js.gz'), gzipSync('console.log(1)'));
    await writeFile(path.join(web, 'assets', 'only-gzip-def456.css'), 'body{}');
    await writeFile(path.join(web, 'assets', 'only-gzip-def456.css.gz'), gzipSync('body{}'));
    await writeFile(path.join(web, 'favicon.svg'), '<svg/>');
    await writeFile(path.join(web, 'index.html.br'), brotliCompressSync(INDEX_HTML));
    await writeFile(path.join(web, 'index.html.gz'), gzipSync(INDEX_HTML));
    t = await createBareTestApp({ WEB_DIST: web });
  });
  afterAll(async () => {
    await t?.close();
    await rm(web, { recursive: true, force: true });
  });

  it('should serve version.json of the build with no-cache', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/version.json?timestamp=123' });
    expect(res.json()).toEqual({ version: 'build-42' });
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('should fall back to index.html with no-cache for application routes', async () => {
    for (const url of ['/', '/person/project', '/patient/list?id=1', '/404']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('注册平台');
    }
  });

  it('should cache hashed assets for a long time and answer 404 for missing ones', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await t.app.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(404);
  });

  it('should send the precompressed asset the browser accepts, brotli first, and say that it varies', async () => {
    const cases = [
      { accept: 'gzip, deflate, br, zstd', encoding: 'br', body: brotliCompressSync('console.log(1)') },
      { accept: 'gzip', encoding: 'gzip', body: gzipSync('console.log(1)') },
      { accept: undefined, encoding: undefined, body: Buffer.from('console.log(1)') },
      { accept: 'identity', encoding: undefined, body: Buffer.from('console.log(1)') },
    ];
    for (const { accept, encoding, body } of cases) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/assets/index-abc123.js',
        headers: accept === undefined ? {} : { 'accept-encoding': accept },
      });
      expect(res.statusCode, accept).toBe(200);
      expect(res.headers['content-encoding'], accept).toBe(encoding);
      expect(res.headers['content-type'], accept).toMatch(/javascript/);
      expect(res.headers.vary, accept).toMatch(/accept-encoding/i);
      expect(res.headers['cache-control'], accept).toBe('public, max-age=31536000, immutable');
      expect(res.rawPayload.equals(body), accept).toBe(true);
    }
  });

  it('should fall back to gzip or the plain file when a compressed copy is missing', async () => {
    const gz = await t.app.inject({
      method: 'GET',
      url: '/assets/only-gzip-def456.css',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe('body{}');
    const plain = await t.app.inject({
      method: 'GET',
      url: '/favicon.svg',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(plain.body).toBe('<svg/>');
  });

  it('should send index.html and the SPA fallback compressed and no-cache', async () => {
    for (const url of ['/', '/index.html', '/person/project']) {
      const br = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
      expect(br.statusCode, url).toBe(200);
      expect(br.headers['content-encoding'], url).toBe('br');
      expect(br.headers['cache-control'], url).toBe('no-cache');
      expect(br.headers.vary, url).toMatch(/accept-encoding/i);
      expect(brotliDecompressSync(br.rawPayload).toString(), url).toBe(INDEX_HTML);
      const none = await t.app.inject({ method: 'GET', url });
      expect(none.headers['content-encoding'], url).toBeUndefined();
      expect(none.headers['cache-control'], url).toBe('no-cache');
      expect(none.body, url).toBe(INDEX_HTML);
    }
  });

  it('should not serve files outside the build directory', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/..%2f..%2fetc%2fpasswd' });
    expect(res.body).not.toContain('root:');
  });

  it('should keep unknown API paths as JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/cmdb-template/nothing' });
    expect(res.statusCode).toBe(404);
    expect(res.json<Body>().message).toBe('接口不存在');
  });
});
