import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPTCHA_KEY_HEADER, QR_KEY_HEADER } from '@registry/shared/contracts/auth';
import { auditEvents, loginAttempts, sessions } from '../../db/schema';
import { SYS_TENANT_CODE } from '@registry/shared/constants';
import { BUILT_IN_ROLES } from '@registry/shared/roles';
import { buildTenant, buildUser, project, TEST_PASSWORD, type Account } from '../../../test/factories';
import { FIXED_CAPTCHA, countRows, createBareTestApp, type TestApp } from '../../../test/test-app';
import { testSealer } from '../../../test/audit-seal';

type Body<T = unknown> = {
  status: number;
  message: string;
  data: T;
  requestId?: string;
  issues?: { path: string; message: string }[];
};

/**
 * The accounts these tests sign in with, in an app of their own: the system tenant's `admin`; hospital h001's
 * administrator `owner` (phone 13800000001), `entry` (phone 13800000002), `monitor`, `nurse` and `newdoc` (still with the
 * initial password Init@2026). Every other password is TEST_PASSWORD. With `projects`, the owner's HF-REG, its
 * sub-project HF-REG-HFPEF and T2DM-FU.
 */
async function accounts(app: TestApp, options: { projects?: boolean } = {}) {
  const sys = await buildTenant(app.db, { code: SYS_TENANT_CODE, name: '系统租户', type: 'SYSTEM' });
  await buildUser(app.db, sys.tenant.id, {
    username: 'admin',
    userType: 'ADMIN',
    tenantRoleCode: BUILT_IN_ROLES.sysAdmin.code,
  });
  const h = await buildTenant(app.db, { code: 'h001', name: '示例第一人民医院' });
  const inH001 = { organisationId: h.organisationId };
  const owner = await buildUser(app.db, h.tenant.id, {
    ...inH001,
    username: 'owner',
    phone: '13800000001',
    tenantRoleCode: BUILT_IN_ROLES.tenantAdmin.code,
  });
  await buildUser(app.db, h.tenant.id, { ...inH001, username: 'entry', phone: '13800000002' });
  await buildUser(app.db, h.tenant.id, { ...inH001, username: 'monitor' });
  await buildUser(app.db, h.tenant.id, { ...inH001, username: 'nurse' });
  await buildUser(app.db, h.tenant.id, { ...inH001, username: 'newdoc', password: 'Init@2026', initPwd: true });
  if (options.projects) {
    const token = await app.login('owner', TEST_PASSWORD);
    const account: Account = { ...owner, tenantId: h.tenant.id, token };
    const hf = await project(app, account, { code: 'HF-REG' });
    await project(app, account, { code: 'HF-REG-HFPEF', parentId: hf.id });
    await project(app, account, { code: 'T2DM-FU' });
  }
  return { h001: h.tenant.id };
}

let t: TestApp;
let h001: string;
beforeAll(async () => {
  t = await createBareTestApp();
  ({ h001 } = await accounts(t, { projects: true }));
});
afterAll(async () => {
  await t?.close();
});

const passwordLogin = (username: string, password: string, extra: Record<string, unknown> = {}) =>
  t.api({ method: 'POST', url: '/auth/login', payload: { loginType: 'password', username, password, ...extra } });

async function attemptsOf(username: string) {
  return t.db.select().from(loginAttempts).where(eq(loginAttempts.username, username));
}

describe('POST auth/login (password)', () => {
  it('should return a token, its expiry and initPwd and audit the sign-in when the password is right', async () => {
    const before = await countRows(t, 'sessions');
    const res = await passwordLogin('OWNER', TEST_PASSWORD);
    expect(res.statusCode).toBe(200);
    const body = res.json<Body<{ token: string; expiresAt: string; initPwd: boolean }>>();
    expect(body.status).toBe(200);
    expect(body.data.initPwd).toBe(false);
    expect(body.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const hours = (Date.parse(body.data.expiresAt) - t.clock.now().getTime()) / 3_600_000;
    expect(hours).toBeCloseTo(12, 1);
    expect(await countRows(t, 'sessions')).toBe(before + 1);
    const stored = await t.db.select({ tokenHash: sessions.tokenHash }).from(sessions);
    expect(stored.some((s) => s.tokenHash === body.data.token)).toBe(false);
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'login'));
    expect(events.length).toBeGreaterThan(0);
    expect(JSON.stringify(events)).not.toContain(body.data.token);
  });

  it('should report initPwd when the user still has the initial password', async () => {
    const res = await passwordLogin('newdoc', 'Init@2026');
    expect(res.json<Body<{ initPwd: boolean }>>().data.initPwd).toBe(true);
  });

  it('should answer 400 with the field named in Chinese and write nothing when fields are missing', async () => {
    const sessionsBefore = await countRows(t, 'sessions');
    const attemptsBefore = await countRows(t, 'login_attempts');
    const res = await t.api({ method: 'POST', url: '/auth/login', payload: { loginType: 'password', password: 'x' } });
    expect(res.statusCode).toBe(400);
    const body = res.json<Body>();
    expect(body.status).toBe(400);
    expect(body.message).toBe('用户名：不能为空');
    expect(body.issues).toEqual([{ path: 'username', message: '用户名：不能为空' }]);
    expect(body.requestId).toBeTruthy();
    const empty = await passwordLogin('', 'x');
    expect(empty.json<Body>().message).toBe('用户名：请输入用户名');
    expect(await countRows(t, 'sessions')).toBe(sessionsBefore);
    expect(await countRows(t, 'login_attempts')).toBe(attemptsBefore);
  });

  it('should name the sign-in method when it is missing or unknown', async () => {
    const missing = await t.api({ method: 'POST', url: '/auth/login', payload: { username: 'owner', password: 'x' } });
    expect(missing.json<Body>().message).toBe('登录方式：不能为空');
    const unknown = await t.api({ method: 'POST', url: '/auth/login', payload: { loginType: 'wechat' } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json<Body>().message).toBe('登录方式：取值无效');
  });

  it('should answer 400 when a field has the wrong type', async () => {
    const res = await t.api({
      method: 'POST',
      url: '/auth/login',
      payload: { loginType: 'password', username: 42, password: ['x'] },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json<Body>();
    expect(body.issues?.map((i) => i.path)).toEqual(['username', 'password']);
    expect(body.message.startsWith('用户名：')).toBe(true);
  });

  it('should refuse a body carrying __proto__ with 400', async () => {
    const res = await t.api({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: `{"loginType":"password","username":"owner","password":"${TEST_PASSWORD}","__proto__":{"admin":true}}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>().message).toBe('请求内容包含非法字段');
  });

  it('should give the same message for an unknown user and a wrong password and record both attempts', async () => {
    const unknown = await passwordLogin('nobody-here', TEST_PASSWORD);
    const wrong = await passwordLogin('nurse', 'Wrong@2026');
    expect(unknown.statusCode).toBe(400);
    expect(wrong.statusCode).toBe(400);
    expect(unknown.json<Body>().message).toBe('用户名或密码错误');
    expect(wrong.json<Body>().message).toBe('用户名或密码错误');
    expect((await attemptsOf('nobody-here')).map((a) => a.reason)).toEqual(['unknown_user']);
    expect((await attemptsOf('nurse')).map((a) => [a.success, a.reason])).toContainEqual([false, 'bad_password']);
  });

  it('should refuse a disabled account with its message and create no session', async () => {
    const user = await buildUser(t.db, h001, { disabled: true });
    const before = await countRows(t, 'sessions');
    const res = await passwordLogin(user.username, user.password);
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>().message).toBe('账号已停用');
    expect(await countRows(t, 'sessions')).toBe(before);
  });
});

describe('failed sign-ins: no enumeration, no lock-out, a throttle per IP', () => {
  let c: TestApp;
  let cH001: string;
  beforeAll(async () => {
    c = await createBareTestApp({ LOGIN_MAX_FAILURES: '5', LOGIN_LOCK_MINUTES: '15' });
    ({ h001: cH001 } = await accounts(c));
  });
  afterAll(async () => {
    await c?.close();
  });
  const login = (ip: string, username: string, password: string, extra: Record<string, unknown> = {}) =>
    c.api({
      method: 'POST',
      url: '/auth/login',
      remoteAddress: ip,
      payload: { loginType: 'password', username, password, ...extra },
    });
  const answer = async (p: Promise<{ statusCode: number; json: <T>() => T }>) => {
    const res = await p;
    return `${res.statusCode} ${res.json<Body>().message}`;
  };
  const captcha = async (ip: string) => {
    const res = await c.api({ method: 'GET', url: '/auth/captcha', remoteAddress: ip });
    return { captchaKey: String(res.headers[CAPTCHA_KEY_HEADER]), captchaCode: FIXED_CAPTCHA };
  };

  it('should answer a missing and an existing account identically, failure after failure', async () => {
    const user = await buildUser(c.db, cH001);
    const existing: string[] = [];
    const missing: string[] = [];
    for (let i = 0; i < 7; i++) {
      existing.push(await answer(login(`10.1.0.${i}`, user.username, 'wrong-password')));
      missing.push(await answer(login(`10.2.0.${i}`, 'no-such-account', 'wrong-password')));
    }
    expect(existing).toEqual(missing);
    expect(existing.slice(0, 5)).toEqual(Array(5).fill('400 用户名或密码错误'));
    // After 5 failures of the name a captcha is asked, for both alike (never 423, never a lock).
    expect(existing.slice(5)).toEqual(Array(2).fill('400 请输入验证码'));
  });

  it('should let the owner who solves the captcha sign in after an attacker failed many times', async () => {
    const user = await buildUser(c.db, cH001);
    for (let i = 0; i < 8; i++) await login(`10.3.0.${i}`, user.username, 'guess');
    expect(await answer(login('10.4.0.1', user.username, user.password))).toBe('400 请输入验证码');
    const ok = await login('10.4.0.1', user.username, user.password, await captcha('10.4.0.1'));
    expect(ok.statusCode).toBe(200);
    // The success resets the name's count: no captcha next time.
    expect((await login('10.4.0.2', user.username, user.password)).statusCode).toBe(200);
  });

  it('should throttle one IP with a growing delay, whatever the accounts it tries', async () => {
    const ip = '10.5.0.1';
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await login(ip, `someone${i}`, 'guess')).statusCode);
    expect(statuses).toEqual([400, 400, 400, 400, 400]);
    expect(await answer(login(ip, 'someone9', 'guess'))).toBe('429 登录失败次数过多，请1秒后再试');
    // Another IP is not slowed down.
    expect((await login('10.5.0.2', 'owner', TEST_PASSWORD)).statusCode).toBe(200);
    c.clock.advanceMinutes(1.1 / 60);
    // After the delay: a captcha is required from that IP; a wrong password doubles the delay.
    expect(await answer(login(ip, 'someone9', 'guess', await captcha(ip)))).toBe('400 用户名或密码错误');
    expect(await answer(login(ip, 'someone9', 'guess'))).toBe('429 登录失败次数过多，请2秒后再试');
    c.clock.advanceMinutes(2.1 / 60);
    expect((await login(ip, 'owner', TEST_PASSWORD, await captcha(ip))).statusCode).toBe(200);
  });

  it('should kill an SMS code after 5 wrong tries without locking the account', async () => {
    const phone = '13800000088';
    const user = await buildUser(c.db, cH001, { phone });
    await c.api({ method: 'GET', url: '/auth/sms', query: { phone } });
    const code = /(\d{6})/.exec(c.sms.findLast((m) => m.phone === phone)?.text ?? '')?.[1] ?? '';
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const res = await c.api({
        method: 'POST',
        url: '/auth/login',
        remoteAddress: `10.6.0.${i}`,
        payload: { loginType: 'sms', phone, smsCode: wrong },
      });
      expect(res.json<Body>().message).toBe('短信验证码错误或已过期');
    }
    const right = await c.api({
      method: 'POST',
      url: '/auth/login',
      remoteAddress: '10.6.1.1',
      payload: { loginType: 'sms', phone, smsCode: code },
    });
    expect(right.statusCode).toBe(400);
    expect(right.json<Body>().message).toBe('短信验证码错误或已过期');
    // The account itself is not locked.
    expect((await login('10.6.1.2', user.username, user.password)).statusCode).toBe(200);
  });

  it('should record failed sign-ins in the audit trail: the tenant chain, or the system trail for a missing name', async () => {
    const user = await buildUser(c.db, cH001);
    await login('10.7.0.1', user.username, 'Secret-guess-1');
    await login('10.7.0.2', 'ghost-account', 'Secret-guess-2');
    const events = await c.db.select().from(auditEvents).where(eq(auditEvents.action, 'login.failed'));
    const own = events.find((e) => e.entityId === user.id);
    expect(own).toMatchObject({ tenantId: user.tenantId, actorId: null, ip: '10.7.0.1' });
    expect(own?.newValue).toMatchObject({ method: 'password', login: user.username, reason: 'bad_password' });
    const ghost = events.find((e) => (e.newValue as { login?: string }).login === 'ghost-account');
    expect(ghost).toMatchObject({ tenantId: null, entityId: null, ip: '10.7.0.2' });
    expect(JSON.stringify(events)).not.toMatch(/Secret-guess/);
    const sealer = await testSealer(c);
    await sealer.sealAll();
    const chains = await sealer.verify();
    expect(chains.find((r) => r.tenantId === user.tenantId)).toMatchObject({ ok: true, unsealed: 0 });
    expect(chains.find((r) => r.tenantKey === '-')).toMatchObject({ ok: true, unsealed: 0 });
  });
});

describe('GET auth/login-options', () => {
  it('should tell the sign-in page which ways are enabled', async () => {
    const res = await t.api({ method: 'GET', url: '/auth/login-options' });
    expect(res.json<Body>().data).toEqual({ captchaEnabled: false, smsEnabled: true, qrEnabled: true });
  });
});

describe('captcha', () => {
  let c: TestApp;
  beforeAll(async () => {
    c = await createBareTestApp({ CAPTCHA_ENABLED: 'true' });
    await accounts(c);
  });
  afterAll(async () => {
    await c?.close();
  });

  const getCaptcha = async () => {
    const res = await c.api({ method: 'GET', url: '/auth/captcha' });
    expect(res.statusCode).toBe(200);
    return { res, key: String(res.headers[CAPTCHA_KEY_HEADER]) };
  };
  const login = (extra: Record<string, unknown>) =>
    c.api({
      method: 'POST',
      url: '/auth/login',
      payload: { loginType: 'password', username: 'owner', password: TEST_PASSWORD, ...extra },
    });

  it('should send an SVG image, its key in an exposed header, no-store and a locked-down CSP', async () => {
    const { res, key } = await getCaptcha();
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(String(res.headers['content-security-policy'])).toContain("default-src 'none'");
    expect(String(res.headers['access-control-expose-headers'])).toContain(CAPTCHA_KEY_HEADER);
    expect(key.length).toBeGreaterThan(10);
    const [row] = await c.database.pool
      .query('select answer_hash from captchas where key = $1', [key])
      .then((r) => r.rows);
    expect(row.answer_hash).not.toContain(FIXED_CAPTCHA);
  });

  it('should sign in when the captcha answer is right, whatever its case', async () => {
    const { key } = await getCaptcha();
    expect((await login({ captchaKey: key, captchaCode: FIXED_CAPTCHA.toLowerCase() })).statusCode).toBe(200);
  });

  it('should refuse a wrong answer, then the same captcha even with the right answer (single use)', async () => {
    const { key } = await getCaptcha();
    const before = await countRows(c, 'sessions');
    const wrong = await login({ captchaKey: key, captchaCode: 'zzzz' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json<Body>().message).toBe('验证码错误或已过期');
    const reused = await login({ captchaKey: key, captchaCode: FIXED_CAPTCHA });
    expect(reused.statusCode).toBe(400);
    expect(reused.json<Body>().message).toBe('验证码错误或已过期');
    expect(await countRows(c, 'sessions')).toBe(before);
  });

  it('should refuse a captcha that was already used for a successful sign-in', async () => {
    const { key } = await getCaptcha();
    expect((await login({ captchaKey: key, captchaCode: FIXED_CAPTCHA })).statusCode).toBe(200);
    expect((await login({ captchaKey: key, captchaCode: FIXED_CAPTCHA })).json<Body>().message).toBe(
      '验证码错误或已过期',
    );
  });

  it('should refuse a captcha older than 5 minutes', async () => {
    const { key } = await getCaptcha();
    c.clock.advanceMinutes(6);
    const res = await login({ captchaKey: key, captchaCode: FIXED_CAPTCHA });
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>().message).toBe('验证码错误或已过期');
  });

  it('should ask for the captcha when it is missing and record the attempt', async () => {
    const res = await login({});
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>().message).toBe('请输入验证码');
    const reasons = await c.db.select({ reason: loginAttempts.reason }).from(loginAttempts);
    expect(reasons.map((r) => r.reason)).toContain('captcha_missing');
  });

  it('should report the captcha as enabled in the login options', async () => {
    const res = await c.api({ method: 'GET', url: '/auth/login-options' });
    expect(res.json<Body<{ captchaEnabled: boolean }>>().data.captchaEnabled).toBe(true);
  });
});

describe('per-IP rate limit of auth/login', () => {
  it('should answer 429 in Chinese once the IP exceeds its limit', async () => {
    const r = await createBareTestApp({ LOGIN_RATE_LIMIT_PER_MINUTE: '2' });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) {
        statuses.push(
          (
            await r.api({
              method: 'POST',
              url: '/auth/login',
              payload: { loginType: 'password', username: 'x', password: 'y' },
            })
          ).statusCode,
        );
      }
      expect(statuses).toEqual([400, 400, 429]);
      const res = await r.api({
        method: 'POST',
        url: '/auth/login',
        payload: { loginType: 'password', username: 'x', password: 'y' },
      });
      expect(res.json<Body>()).toMatchObject({ status: 429, message: '请求过于频繁，请稍后再试' });
    } finally {
      await r.close();
    }
  });
});

describe('SMS sign-in', () => {
  const codeFrom = (text: string) => /(\d{6})/.exec(text)?.[1] ?? '';

  it('should send a 6-digit code to a known phone and sign in with it once', async () => {
    const res = await t.api({ method: 'GET', url: '/auth/sms', query: { phone: '13800000002' } });
    expect(res.statusCode).toBe(200);
    const sent = t.sms.filter((m) => m.phone === '13800000002');
    expect(sent).toHaveLength(1);
    const code = codeFrom(sent[0]?.text ?? '');
    expect(code).toMatch(/^\d{6}$/);
    const stored = await t.database.pool.query('select code_hash from sms_codes where phone = $1', ['13800000002']);
    expect(stored.rows[0].code_hash).not.toBe(code);

    const login = () =>
      t.api({ method: 'POST', url: '/auth/login', payload: { loginType: 'sms', phone: '13800000002', smsCode: code } });
    const first = await login();
    expect(first.statusCode).toBe(200);
    const second = await login();
    expect(second.statusCode).toBe(400);
    expect(second.json<Body>().message).toBe('短信验证码错误或已过期');
  });

  it('should answer the same for an unknown phone but send nothing', async () => {
    const before = t.sms.length;
    const res = await t.api({ method: 'GET', url: '/auth/sms', query: { phone: '13900000999' } });
    expect(res.statusCode).toBe(200);
    expect(res.json<Body>().message).toBe('验证码已发送，请注意查收');
    expect(t.sms.length).toBe(before);
  });

  it('should refuse a second code within 60 seconds with 429', async () => {
    await t.api({ method: 'GET', url: '/auth/sms', query: { phone: '13800000001' } });
    const again = await t.api({ method: 'GET', url: '/auth/sms', query: { phone: '13800000001' } });
    expect(again.statusCode).toBe(429);
    expect(again.json<Body>().message).toBe('发送过于频繁，请稍后再试');
    t.clock.advanceMinutes(1.1);
    expect((await t.api({ method: 'GET', url: '/auth/sms', query: { phone: '13800000001' } })).statusCode).toBe(200);
  });

  it('should refuse an expired code', async () => {
    const phone = '13800000077';
    await buildUser(t.db, h001, { phone });
    await t.api({ method: 'GET', url: '/auth/sms', query: { phone } });
    const code = codeFrom(t.sms.findLast((m) => m.phone === phone)?.text ?? '');
    t.clock.advanceMinutes(6);
    const res = await t.api({
      method: 'POST',
      url: '/auth/login',
      payload: { loginType: 'sms', phone, smsCode: code },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>().message).toBe('短信验证码错误或已过期');
  });

  it('should validate the phone number in Chinese', async () => {
    const res = await t.api({ method: 'GET', url: '/auth/sms', query: { phone: '12345' } });
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>().message).toBe('手机号：手机号应为11位中国大陆手机号');
  });

  it('should write the default provider message to the outbox table', async () => {
    const o = await createBareTestApp({}, { smsProvider: undefined });
    try {
      await accounts(o);
      // createBareTestApp passes its own recorder unless overridden with undefined, which falls back to the outbox.
      await o.api({ method: 'GET', url: '/auth/sms', query: { phone: '13800000002' } });
      const { rows } = await o.database.pool.query('select phone, message from sms_outbox');
      expect(rows).toHaveLength(1);
      expect(rows[0].message).toMatch(/\d{6}/);
    } finally {
      await o.close();
    }
  });
});

describe('QR sign-in', () => {
  it('should hand a confirmed code token out exactly once and to the confirming user', async () => {
    const img = await t.api({ method: 'GET', url: '/auth/qr-code', headers: { host: 'registry.example:3000' } });
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.rawPayload.subarray(0, 4).toString('hex')).toBe('89504e47');
    const key = String(img.headers[QR_KEY_HEADER]);
    const status = () => t.api({ method: 'GET', url: '/auth/qr-code/status', query: { key } });
    expect((await status()).json<Body>().data).toEqual({ state: 'pending' });

    const phone = await t.login('entry', TEST_PASSWORD);
    expect(
      (await t.api({ method: 'POST', url: '/auth/qr-code/scan', payload: { key }, token: phone })).statusCode,
    ).toBe(200);
    expect((await status()).json<Body>().data).toEqual({ state: 'scanned' });
    const confirm = await t.api({ method: 'POST', url: '/auth/qr-code/confirm', payload: { key }, token: phone });
    expect(confirm.statusCode).toBe(200);

    const first = (await status()).json<Body<{ state: string; token?: string }>>().data;
    expect(first.state).toBe('confirmed');
    expect(first.token).toBeTruthy();
    const second = (await status()).json<Body<{ state: string; token?: string }>>().data;
    expect(second).toEqual({ state: 'confirmed' });

    const info = await t.api({ method: 'GET', url: '/sys-user/user-info', token: first.token });
    expect(info.json<Body<{ username: string }>>().data.username).toBe('entry');
    const audits = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'login.qr.confirm'));
    expect(audits).toHaveLength(1);
  });

  it('should refuse to confirm without a session and after 2 minutes', async () => {
    const key = String((await t.api({ method: 'GET', url: '/auth/qr-code' })).headers[QR_KEY_HEADER]);
    const anonymous = await t.api({ method: 'POST', url: '/auth/qr-code/confirm', payload: { key } });
    expect(anonymous.statusCode).toBe(401);
    t.clock.advanceMinutes(3);
    expect((await t.api({ method: 'GET', url: '/auth/qr-code/status', query: { key } })).json<Body>().data).toEqual({
      state: 'expired',
    });
    const token = await t.login('entry', TEST_PASSWORD);
    const late = await t.api({ method: 'POST', url: '/auth/qr-code/confirm', payload: { key }, token });
    expect(late.statusCode).toBe(400);
    expect(late.json<Body>().message).toBe('二维码已失效，请刷新后重试');
  });

  it('should answer expired for an unknown key', async () => {
    const res = await t.api({ method: 'GET', url: '/auth/qr-code/status', query: { key: 'no-such-key' } });
    expect(res.json<Body>().data).toEqual({ state: 'expired' });
  });
});

describe('POST auth/logout', () => {
  it('should revoke the token at once and audit it', async () => {
    const token = await t.login('monitor', TEST_PASSWORD);
    expect((await t.api({ method: 'GET', url: '/sys-user/user-info', token })).statusCode).toBe(200);
    const out = await t.api({ method: 'POST', url: '/auth/logout', token });
    expect(out.statusCode).toBe(200);
    const after = await t.api({ method: 'GET', url: '/sys-user/user-info', token });
    expect(after.statusCode).toBe(401);
    expect(after.json<Body>()).toMatchObject({ status: 401, message: '登录已过期，请重新登录' });
    const [row] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(auditEvents)
      .where(eq(auditEvents.action, 'logout'));
    expect(row?.n).toBeGreaterThan(0);
  });
});

describe('GET auth/change (tenant switch)', () => {
  it('should let the sys administrator act in another tenant and clear the current project', async () => {
    const token = await t.login('admin', TEST_PASSWORD);
    const res = await t.api({ method: 'GET', url: '/auth/change', query: { tenantCode: 'h001' }, token });
    expect(res.statusCode).toBe(200);
    expect(res.json<Body>().message).toBe('操作成功');
    const info = await t.api({ method: 'GET', url: '/sys-user/user-info', token });
    expect(info.json<Body<{ tenantCode: string; tenant: { tenantType: string } }>>().data).toMatchObject({
      tenantCode: 'h001',
      tenant: { tenantType: 'HOSPITAL' },
    });
    const list = await t.api({ method: 'POST', url: '/web-project/list', token, payload: {} });
    const codes = list
      .json<Body<{ projectVOs: { projectCode: string }[] }>>()
      .data.projectVOs.map((p) => p.projectCode);
    expect(codes).toEqual(expect.arrayContaining(['HF-REG', 'HF-REG-HFPEF', 'T2DM-FU']));
    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'tenant.switch'));
    expect(event?.newValue).toMatchObject({ tenantCode: 'h001' });
  });

  it('should answer 404 for an unknown tenant code and keep the acting tenant', async () => {
    const token = await t.login('admin', TEST_PASSWORD);
    const res = await t.api({ method: 'GET', url: '/auth/change', query: { tenantCode: 'nope' }, token });
    expect(res.statusCode).toBe(404);
    expect(res.json<Body>().message).toBe('租户不存在');
    const info = await t.api({ method: 'GET', url: '/sys-user/user-info', token });
    expect(info.json<Body<{ tenantCode: string }>>().data.tenantCode).toBe('sys');
  });

  it('should answer 403 to a user who is not a sys administrator and write nothing', async () => {
    const token = await t.login('owner', TEST_PASSWORD);
    const audits = await countRows(t, 'audit_events');
    const res = await t.api({ method: 'GET', url: '/auth/change', query: { tenantCode: 'sys' }, token });
    expect(res.statusCode).toBe(403);
    expect(res.json<Body>()).toMatchObject({ status: 403, message: '无权限执行此操作' });
    expect(await countRows(t, 'audit_events')).toBe(audits);
    const info = await t.api({ method: 'GET', url: '/sys-user/user-info', token });
    expect(info.json<Body<{ tenantCode: string }>>().data.tenantCode).toBe('h001');
  });

  it('should require the tenant code', async () => {
    const token = await t.login('admin', TEST_PASSWORD);
    const res = await t.api({ method: 'GET', url: '/auth/change', token });
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>().message).toBe('租户编码：不能为空');
  });
});
