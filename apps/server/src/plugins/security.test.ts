import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config/config';
import { createBareTestApp, type TestApp } from '../../test/test-app';

/** Sends raw bytes to a listening server and reads the whole answer (the server closes the connection). */
function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', (err) => (chunks.length > 0 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(err)));
    socket.write(text);
  });
}

describe('a request Node refuses before Fastify (query string over 16 KB)', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createBareTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('should answer 431 in the envelope with a Chinese message, not echoing the query', async () => {
    const secret = `1380000${'9'.repeat(20_000)}`;
    const answer = await rawRequest(
      port,
      `GET /api/cmdb-template/auth/sms?phone=${secret} HTTP/1.1\r\nHost: localhost\r\nx-app-code: x\r\n\r\n`,
    );
    const [head = '', body = ''] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 431 /);
    expect(head.toLowerCase()).toContain('content-type: application/json; charset=utf-8');
    const parsed = JSON.parse(body) as { status: number; message: string; data: unknown; requestId: string };
    expect(parsed).toMatchObject({ status: 431, data: null });
    expect(parsed.message).toMatch(/[\u4e00-\u9fa5]/);
    expect(parsed.message).toContain('16KB');
    expect(parsed.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer).not.toContain('9999999999');
  });

  it('should answer a malformed request line with the 400 envelope', async () => {
    const answer = await rawRequest(port, 'NOT A REQUEST\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    const parsed = JSON.parse(answer.split('\r\n\r\n')[1] ?? '') as { status: number; message: string };
    expect(parsed.status).toBe(400);
    expect(parsed.message).toMatch(/[\u4e00-\u9fa5]/);
  });

  it('should still answer a long but acceptable query string normally', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/cmdb-template/auth/sms?phone=${'1'.repeat(8_000)}`);
    expect(res.status).toBeLessThan(500);
    expect(res.status).not.toBe(431);
  });
});

describe('HSTS', () => {
  it('should send no Strict-Transport-Security by default', async () => {
    const t = await createBareTestApp();
    try {
      const res = await t.api({ method: 'GET', url: '/auth/login-options' });
      expect(res.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await t.close();
    }
  });

  it('should send Strict-Transport-Security with HSTS_ENABLED and HSTS_MAX_AGE', async () => {
    const t = await createBareTestApp({ HSTS_ENABLED: 'true', HSTS_MAX_AGE: '31536000' });
    try {
      const res = await t.api({ method: 'GET', url: '/auth/login-options' });
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
    } finally {
      await t.close();
    }
  });

  it('should refuse a bad HSTS_MAX_AGE at start', () => {
    expect(() => loadConfig({ HSTS_MAX_AGE: '-1' })).toThrow(ConfigError);
    expect(() => loadConfig({ HSTS_ENABLED: 'yes' })).toThrow(ConfigError);
    expect(loadConfig({}).hstsEnabled).toBe(false);
  });
});
