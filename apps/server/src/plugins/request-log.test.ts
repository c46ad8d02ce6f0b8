import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboxSmsProvider } from '../modules/auth/sms-provider';
import { hospital, project } from '../../test/factories';
import { createBareTestApp, type TestApp } from '../../test/test-app';
import { redactUrl, serializeError } from './request-log';

/**
 * What the server log never holds: query values (a staff phone of `auth/sms?phone=`), delete reasons, names searched
 * for, SQL parameters of a failed query. The app logs into a captured stream, at trace level, like production's JSON.
 */
let t: TestApp;
let owner: string;
let centerId = '';
const lines: string[] = [];
const logged = () => lines.join('');

beforeAll(async () => {
  t = await createBareTestApp(
    { SMS_LOGIN_ENABLED: 'true' },
    { logger: { level: 'trace', stream: { write: (line: string) => void lines.push(line) } } },
  );
  // The staff phone the SMS sign-in test asks a code for is the owner's.
  const h = await hospital(t, { admin: { phone: '13800000001' } });
  const p = await project(t, h.admin);
  owner = p.owner.token;
  centerId = p.defaultCenterId;
});
afterAll(async () => {
  await t?.close();
});

describe('request log', () => {
  it('should log the path and the query keys of a request, never the values', async () => {
    lines.length = 0;
    await t.api({ method: 'GET', url: '/auth/sms?phone=13800000001' });
    await t.api({ method: 'GET', url: '/oss/file/preview/1?access_token=secret.token.value' });
    expect(logged()).toContain('/auth/sms?phone=***');
    expect(logged()).toContain('access_token=***');
    expect(logged()).not.toContain('13800000001');
    expect(logged()).not.toContain('secret.token.value');
  });

  it('should redact every query value and odd keys', () => {
    expect(redactUrl('/a/b?x=1&phone=138&y')).toBe('/a/b?x=***&phone=***&y=***');
    expect(redactUrl('/a?%E7%8E%8B=1')).toBe('/a??=***');
    expect(redactUrl('/a?')).toBe('/a');
    expect(redactUrl('/a/b')).toBe('/a/b');
  });

  it('should take a patient delete reason from the body and keep it and the name out of the log', async () => {
    const created = await t.api({
      method: 'POST',
      url: '/patient-info',
      token: owner,
      payload: { name: '日志甲某', centerId },
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json<{ data: { id: string } }>().data.id;
    lines.length = 0;
    const res = await t.api({
      method: 'DELETE',
      url: `/patient-info?ids=${id}`,
      token: owner,
      payload: { reason: '受试者撤回知情同意书' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ data: { deleted: number } }>().data.deleted).toBe(1);
    expect(logged()).toContain('/patient-info?ids=***');
    expect(logged()).not.toContain('受试者撤回知情同意书');
    expect(logged()).not.toContain('日志甲某');
  });

  it('should refuse a form record delete reason in the URL, and not log it', async () => {
    lines.length = 0;
    const res = await t.api({
      method: 'DELETE',
      url: `/form-record?id=${randomUUID()}&reason=${encodeURIComponent('重复录入乙')}`,
      token: owner,
      payload: {},
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toContain('请求内容');
    expect(logged()).not.toContain('重复录入乙');
    const inBody = await t.api({
      method: 'DELETE',
      url: `/form-record?id=${randomUUID()}`,
      token: owner,
      payload: { reason: '重复录入乙' },
    });
    expect(inBody.statusCode).toBe(404);
  });
});

describe('failed queries', () => {
  it('should log a failed query without its parameters (a name searched for)', async () => {
    // A column the patient list reads goes missing: the search fails in PostgreSQL (42703) and answers 500.
    await t.database.ownerPool().query('alter table patients rename column hospital_no to hospital_no_gone');
    try {
      lines.length = 0;
      const res = await t.api({
        method: 'POST',
        url: '/patient-info/page',
        token: owner,
        payload: { keyword: '王小明' },
      });
      expect(res.statusCode).toBe(500);
      expect(res.body).not.toContain('王小明');
      expect(logged()).toContain('request failed');
      expect(logged()).toContain('42703');
      expect(logged()).toContain('from \\"patients\\"');
      expect(logged()).not.toContain('王小明');
      expect(logged()).not.toContain('params:');
    } finally {
      await t.database.ownerPool().query('alter table patients rename column hospital_no_gone to hospital_no');
    }
  });

  it('should drop the value PostgreSQL quotes in its message (\'invalid input syntax … "王小明"\')', async () => {
    const err = await t.database.pool.query('select $1::uuid', ['王小明']).catch((e: unknown) => e);
    const out = JSON.stringify(serializeError(err));
    expect(out).toContain('22P02');
    expect(out).not.toContain('王小明');
    const wrapped = JSON.stringify(
      serializeError(
        Object.assign(new Error('Failed query: select $1\nparams: 王小明'), {
          query: 'select $1',
          params: ['王小明'],
          cause: err,
        }),
      ),
    );
    expect(wrapped).toContain('select $1');
    expect(wrapped).not.toContain('王小明');
  });

  it('should keep an ordinary error message and stack', () => {
    const out = serializeError(new TypeError('boom'));
    expect(out).toMatchObject({ type: 'TypeError', message: 'boom' });
    expect(out.stack).toContain('boom');
  });
});

describe('SMS outbox', () => {
  it('should log the text of an SMS with the phone masked in development, and log nothing otherwise', async () => {
    const logs: unknown[] = [];
    const logger = { info: (o: unknown) => logs.push(o) };
    await createOutboxSmsProvider({ db: t.db, clock: t.clock, logger }).send('13912345678', '验证码 123456');
    expect(logs).toEqual([]);
    await createOutboxSmsProvider({ db: t.db, clock: t.clock, logger, logToConsole: true }).send(
      '13912345678',
      '验证码 654321',
    );
    expect(JSON.stringify(logs)).toContain('139****5678');
    expect(JSON.stringify(logs)).toContain('654321');
    expect(JSON.stringify(logs)).not.toContain('13912345678');
  });
});
