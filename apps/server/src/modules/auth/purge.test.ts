import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPTCHA_KEY_HEADER } from '@registry/shared/contracts/auth';
import { buildTenant, buildUser } from '../../../test/factories';
import { countRows, createBareTestApp, type TestApp } from '../../../test/test-app';
import { purgeExpiredSignInData } from './auth.repository';

let t: TestApp;
let user: Awaited<ReturnType<typeof buildUser>>;
beforeAll(async () => {
  t = await createBareTestApp();
  user = await buildUser(t.db, (await buildTenant(t.db)).tenant.id, { phone: '13800000001' });
});
afterAll(async () => {
  await t?.close();
});

describe('purgeExpiredSignInData', () => {
  it('should delete one-time codes a day after they expired and keep fresh ones, sessions, attempts and audit', async () => {
    await t.api({ method: 'GET', url: '/auth/captcha' });
    await t.api({ method: 'GET', url: '/auth/qr-code' });
    await t.api({ method: 'GET', url: '/auth/sms', query: { phone: '13800000001' } });
    await t.login(user.username, user.password);
    const audits = await countRows(t, 'audit_events');
    const attempts = await countRows(t, 'login_attempts');

    expect(await purgeExpiredSignInData(t.db, t.clock.now())).toBe(0);
    const dayLater = new Date(t.clock.now().getTime() + 25 * 3_600_000);
    const fresh = await t.api({ method: 'GET', url: '/auth/captcha' });
    expect(fresh.headers[CAPTCHA_KEY_HEADER]).toBeTruthy();
    await t.database.pool.query("update captchas set expires_at = now() + interval '2 days' where key = $1", [
      String(fresh.headers[CAPTCHA_KEY_HEADER]),
    ]);

    expect(await purgeExpiredSignInData(t.db, dayLater)).toBe(3);
    expect(await countRows(t, 'captchas')).toBe(1);
    expect(await countRows(t, 'sms_codes')).toBe(0);
    expect(await countRows(t, 'qr_logins')).toBe(0);
    expect(await countRows(t, 'sessions')).toBe(1);
    expect(await countRows(t, 'audit_events')).toBe(audits);
    expect(await countRows(t, 'login_attempts')).toBe(attempts);
  });
});
