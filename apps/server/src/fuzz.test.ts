import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';

/**
 * A fuzz run over the JSON calls: random bodies and query strings built from the contracts' field names with values
 * of any type. No answer may be a 5xx, every answer is the envelope with a Chinese message, none leaks a stack.
 */
let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.login('owner', 'Demo@2026');
});
afterAll(async () => {
  await t?.close();
});

const anyValue = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.constantFrom(
    '',
    ' ',
    '__proto__',
    '00000000-0000-0000-0000-000000000000',
    "' or 1=1 --",
    '\u0000',
    '😀'.repeat(40),
  ),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 2 }),
);
const bodyOf = (keys: string[]) => fc.dictionary(fc.constantFrom(...keys), anyValue, { maxKeys: keys.length });
const queryOf = (keys: string[]) =>
  fc.dictionary(fc.constantFrom(...keys), fc.string({ maxLength: 60 }), { maxKeys: keys.length });

const cases: { method: 'GET' | 'POST' | 'PUT'; url: string; body?: string[]; query?: string[] }[] = [
  {
    method: 'POST',
    url: '/auth/login',
    body: ['loginType', 'username', 'password', 'captchaKey', 'captchaCode', 'phone', 'smsCode'],
  },
  { method: 'GET', url: '/auth/sms', query: ['phone'] },
  { method: 'GET', url: '/auth/qr-code/status', query: ['key'] },
  { method: 'POST', url: '/auth/qr-code/scan', body: ['key'] },
  { method: 'POST', url: '/auth/qr-code/confirm', body: ['key'] },
  { method: 'GET', url: '/auth/menu', query: ['groupCode'] },
  { method: 'GET', url: '/auth/change', query: ['tenantCode'] },
  { method: 'PUT', url: '/sys-user', body: ['id', 'name', 'avatar'] },
  { method: 'POST', url: '/web-project/list', body: ['keyword'] },
  { method: 'POST', url: '/web-project/list/owned', body: ['keyword'] },
  { method: 'GET', url: '/web-project/change', query: ['projectId'] },
  { method: 'GET', url: '/oss/file/preview/00000000-0000-4000-8000-000000000000', query: ['access_token'] },
];

describe('fuzz', () => {
  for (const c of cases) {
    it(`should never answer 5xx when ${c.method} ${c.url} gets arbitrary input`, async () => {
      await fc.assert(
        fc.asyncProperty(
          c.body ? bodyOf(c.body) : fc.constant(undefined),
          c.query ? queryOf(c.query) : fc.constant({}),
          async (body, query) => {
            const res = await t.api({
              method: c.method,
              url: c.url,
              token,
              query,
              ...(body !== undefined ? { payload: body as Record<string, unknown> } : {}),
            });
            expect(res.statusCode).toBeLessThan(500);
            if (res.headers['content-type']?.toString().includes('json')) {
              const parsed = res.json<{ status: number; message: string }>();
              expect(parsed.status).toBe(res.statusCode);
              if (res.statusCode >= 400) expect(parsed.message).toMatch(/[\u4e00-\u9fa5]/);
              expect(res.body).not.toMatch(/at .+\.ts:\d+/);
            }
          },
        ),
        { numRuns: Number(process.env.FUZZ_RUNS ?? 25) },
      );
    });
  }
});
