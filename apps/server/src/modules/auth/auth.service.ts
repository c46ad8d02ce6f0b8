import type { LoginRequest, LoginResponse, QrStatusResponse } from '@registry/shared/contracts/auth';
import type { AppConfig } from '../../config/config';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { randomDigits, randomToken, sameHash, sha256Hex } from '../../lib/crypto';
import { AppError, ERROR_MESSAGES, loginThrottledMessage } from '../../lib/errors';
import { verifyAgainstDummy, verifyPassword } from '../../lib/password';
import { audit, type AuditContext } from '../../plugins/audit';
import {
  clearFailures,
  consumeCaptcha,
  consumeQrLogin,
  consumeSmsCode,
  findLoginUserById,
  findLoginUserByPhone,
  findLoginUserByUsername,
  findQrLogin,
  findTenantByCode,
  insertCaptcha,
  insertLoginAttempt,
  insertQrLogin,
  insertSmsCode,
  lastSmsCodeAt,
  recentFailuresFromIp,
  recentFailuresOf,
  recordFailure,
  burnSmsCodes,
  wrongSmsCodesSince,
  updateQrLogin,
  type LoginUser,
} from './auth.repository';
import type { CaptchaGenerator } from './captcha';
import type { AuthContext, SessionService } from './session.service';
import type { SmsProvider } from './sms-provider';

export const CAPTCHA_TTL_MS = 5 * 60_000;
export const SMS_TTL_MS = 5 * 60_000;
export const SMS_INTERVAL_MS = 60_000;
export const QR_TTL_MS = 2 * 60_000;
/** Wrong tries a sign-in code survives: the next wrong one kills it (a new code must be requested). */
export const SMS_MAX_ATTEMPTS = 5;

export type AuthConfig = Pick<
  AppConfig,
  'captchaEnabled' | 'smsLoginEnabled' | 'qrLoginEnabled' | 'loginMaxFailures' | 'loginLockMinutes'
>;

export type ClientInfo = { ip: string | null; userAgent: string | null };

export type AuthService = ReturnType<typeof createAuthService>;

function captchaHash(key: string, answer: string): string {
  return sha256Hex(`${key}:${answer.trim().toLowerCase()}`);
}

function smsHash(phone: string, code: string): string {
  return sha256Hex(`${phone}:${code}`);
}

export function createAuthService(deps: {
  db: Db;
  clock: Clock;
  config: AuthConfig;
  sessions: SessionService;
  sms: SmsProvider;
  captcha: CaptchaGenerator;
}) {
  const { db, clock, config, sessions } = deps;

  /**
   * Records an attempt in `login_attempts` and, when it failed, in the audit trail (`login.failed`): the tenant's
   * hash-chained trail when the account exists, the system trail (tenant null) when it does not. No password, code
   * or captcha answer is recorded; `login` is the sign-in name as typed (lower case) or the phone.
   */
  async function attempt(
    login: string,
    client: ClientInfo,
    success: boolean,
    reason: string,
    failed?: { ctx: AuditContext; method: string; user: LoginUser | undefined },
  ): Promise<void> {
    const at = clock.now();
    await db.transaction(async (tx) => {
      await insertLoginAttempt(tx, { username: login, ip: client.ip, success, reason, at });
      if (failed) {
        await audit(
          tx,
          failed.ctx,
          {
            action: 'login.failed',
            entityType: 'user',
            entityId: failed.user?.id ?? null,
            newValue: { method: failed.method, login: login.slice(0, 64), reason },
            actorId: null,
            tenantId: failed.user?.tenantId ?? null,
          },
          at,
        );
      }
    });
  }

  /** Where failures count: the last LOGIN_LOCK_MINUTES. */
  function windowStart(): Date {
    return new Date(clock.now().getTime() - config.loginLockMinutes * 60_000);
  }

  /**
   * The throttle of an IP: from LOGIN_MAX_FAILURES failures in the window on, each attempt must wait a delay that
   * doubles with every further failure (1 s, 2 s, 4 s … capped at LOGIN_LOCK_MINUTES) after the IP's latest failure:
   * 429 until then. It slows one source down without locking any account.
   */
  async function throttleIp(client: ClientInfo): Promise<number> {
    if (!client.ip) return 0;
    const { count, last } = await recentFailuresFromIp(db, client.ip, windowStart());
    if (count < config.loginMaxFailures || !last) return count;
    const delayMs = Math.min(
      2 ** Math.min(count - config.loginMaxFailures, 20) * 1000,
      config.loginLockMinutes * 60_000,
    );
    const waitMs = last.getTime() + delayMs - clock.now().getTime();
    if (waitMs > 0) throw new AppError(429, loginThrottledMessage(Math.ceil(waitMs / 1000)));
    return count;
  }

  /**
   * A captcha is needed when CAPTCHA_ENABLED, or after LOGIN_MAX_FAILURES failures in the window for this sign-in
   * name (existing or not: the same rule, so the answer tells nothing) or from this IP. The owner who solves it can
   * still sign in; nobody can lock an account.
   */
  async function checkCaptcha(
    input: Extract<LoginRequest, { loginType: 'password' }>,
    login: string,
    ipFailures: number,
    client: ClientInfo,
  ): Promise<void> {
    const needed =
      config.captchaEnabled ||
      ipFailures >= config.loginMaxFailures ||
      (await recentFailuresOf(db, login, windowStart())) >= config.loginMaxFailures;
    if (!needed) return;
    if (!input.captchaKey || !input.captchaCode) {
      await attempt(login, client, false, 'captcha_missing');
      throw new AppError(400, ERROR_MESSAGES.captchaRequired);
    }
    const stored = await consumeCaptcha(db, input.captchaKey, clock.now());
    if (!stored || !sameHash(stored, captchaHash(input.captchaKey, input.captchaCode))) {
      await attempt(login, client, false, 'bad_captcha');
      throw new AppError(400, ERROR_MESSAGES.badCaptcha);
    }
  }

  async function startSession(
    user: LoginUser,
    client: ClientInfo,
    ctx: AuditContext,
    method: string,
  ): Promise<LoginResponse> {
    const result = await db.transaction(async (tx) => {
      await clearFailures(tx, user.id);
      const s = await sessions.create(tx, { userId: user.id, tenantId: user.tenantId, ...client });
      await audit(
        tx,
        ctx,
        {
          action: 'login',
          entityType: 'session',
          entityId: s.sessionId,
          newValue: { method, username: user.username },
          actorId: user.id,
          tenantId: user.tenantId,
        },
        clock.now(),
      );
      await insertLoginAttempt(tx, {
        username: user.username.toLowerCase(),
        ip: client.ip,
        success: true,
        reason: `ok:${method}`,
        at: clock.now(),
      });
      return s;
    });
    return { token: result.token, expiresAt: result.expiresAt.toISOString(), initPwd: user.initPwd };
  }

  async function passwordLogin(
    input: Extract<LoginRequest, { loginType: 'password' }>,
    client: ClientInfo,
    ctx: AuditContext,
  ): Promise<LoginResponse> {
    const login = input.username.trim().toLowerCase();
    const ipFailures = await throttleIp(client);
    await checkCaptcha(input, login, ipFailures, client);
    const user = await findLoginUserByUsername(db, input.username);
    // A missing account costs the same hash verification and gets the same answer as a wrong password.
    const passwordOk = user
      ? await verifyPassword(user.passwordHash, input.password)
      : await verifyAgainstDummy(input.password);
    if (!user || !passwordOk) {
      if (user) await recordFailure(db, user.id);
      await attempt(login, client, false, user ? 'bad_password' : 'unknown_user', { ctx, method: 'password', user });
      throw new AppError(400, ERROR_MESSAGES.badCredentials);
    }
    if (user.disabled) {
      await attempt(login, client, false, 'disabled', { ctx, method: 'password', user });
      throw new AppError(400, ERROR_MESSAGES.disabled);
    }
    return startSession(user, client, ctx, 'password');
  }

  async function smsLogin(
    input: Extract<LoginRequest, { loginType: 'sms' }>,
    client: ClientInfo,
    ctx: AuditContext,
  ): Promise<LoginResponse> {
    if (!config.smsLoginEnabled) throw new AppError(400, ERROR_MESSAGES.loginMethodDisabled);
    await throttleIp(client);
    const user = await findLoginUserByPhone(db, input.phone);
    const now = clock.now();
    if (!user || !(await consumeSmsCode(db, input.phone, smsHash(input.phone, input.smsCode), now))) {
      await attempt(input.phone, client, false, user ? 'bad_sms_code' : 'unknown_phone', { ctx, method: 'sms', user });
      // A code dies after SMS_MAX_ATTEMPTS wrong tries (guessing 6 digits stays hopeless); the account is not locked.
      const newest = await lastSmsCodeAt(db, input.phone);
      if (newest && (await wrongSmsCodesSince(db, input.phone, new Date(newest.getTime() - 1))) >= SMS_MAX_ATTEMPTS)
        await burnSmsCodes(db, input.phone, now);
      throw new AppError(400, ERROR_MESSAGES.badSmsCode);
    }
    if (user.disabled) {
      await attempt(input.phone, client, false, 'disabled', { ctx, method: 'sms', user });
      throw new AppError(400, ERROR_MESSAGES.disabled);
    }
    return startSession(user, client, ctx, 'sms');
  }

  return {
    loginOptions: () => ({
      captchaEnabled: config.captchaEnabled,
      smsEnabled: config.smsLoginEnabled,
      qrEnabled: config.qrLoginEnabled,
    }),

    login(input: LoginRequest, client: ClientInfo, ctx: AuditContext): Promise<LoginResponse> {
      return input.loginType === 'password' ? passwordLogin(input, client, ctx) : smsLogin(input, client, ctx);
    },

    async createCaptcha(): Promise<{ key: string; svg: string }> {
      const image = deps.captcha();
      const key = randomToken(18);
      const now = clock.now();
      await insertCaptcha(db, {
        key,
        answerHash: captchaHash(key, image.text),
        expiresAt: new Date(now.getTime() + CAPTCHA_TTL_MS),
        createdAt: now,
      });
      return { key, svg: image.svg };
    },

    /**
     * Sends a sign-in code. An unknown or disabled phone gets the same answer but nothing is sent (no account
     * enumeration); the per-phone interval applies either way.
     */
    async sendSmsCode(phone: string): Promise<void> {
      if (!config.smsLoginEnabled) throw new AppError(400, ERROR_MESSAGES.loginMethodDisabled);
      const now = clock.now();
      const last = await lastSmsCodeAt(db, phone);
      if (last && now.getTime() - last.getTime() < SMS_INTERVAL_MS)
        throw new AppError(429, ERROR_MESSAGES.smsTooFrequent);
      const code = randomDigits(6);
      await insertSmsCode(db, {
        phone,
        codeHash: smsHash(phone, code),
        purpose: 'login',
        expiresAt: new Date(now.getTime() + SMS_TTL_MS),
        createdAt: now,
      });
      const user = await findLoginUserByPhone(db, phone);
      if (user && !user.disabled) {
        await deps.sms.send(
          phone,
          `【临床科研登记平台】您的登录验证码为 ${code}，5分钟内有效。如非本人操作，请忽略本短信。`,
        );
      }
    },

    async createQrLogin(): Promise<{ key: string; expiresAt: Date }> {
      if (!config.qrLoginEnabled) throw new AppError(400, ERROR_MESSAGES.loginMethodDisabled);
      const key = randomToken(24);
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + QR_TTL_MS);
      await insertQrLogin(db, { key, expiresAt, createdAt: now });
      return { key, expiresAt };
    },

    /**
     * The state the sign-in page polls. When a signed-in user confirmed the code, the first poll after that creates
     * the session of the confirming user and hands its token out exactly once (the raw token is never stored).
     */
    async qrStatus(key: string, client: ClientInfo, ctx: AuditContext): Promise<QrStatusResponse> {
      const row = await findQrLogin(db, key);
      const now = clock.now();
      if (!row) return { state: 'expired' };
      if (row.state === 'confirmed' && !row.consumedAt && row.expiresAt > now) {
        const userId = await consumeQrLogin(db, key, now);
        const user = userId ? await findLoginUserById(db, userId) : undefined;
        if (user && !user.disabled) {
          const session = await startSession(user, client, ctx, 'qr');
          return { state: 'confirmed', ...session };
        }
        return { state: 'expired' };
      }
      if (row.state === 'confirmed') return { state: row.consumedAt ? 'confirmed' : 'expired' };
      if (row.expiresAt <= now) return { state: 'expired' };
      return { state: row.state === 'scanned' ? 'scanned' : 'pending' };
    },

    async qrScan(key: string): Promise<void> {
      if (!(await updateQrLogin(db, key, ['pending', 'scanned'], clock.now(), { state: 'scanned' }))) {
        throw new AppError(400, ERROR_MESSAGES.qrInvalid);
      }
    },

    async qrConfirm(key: string, auth: AuthContext, ctx: AuditContext): Promise<void> {
      const now = clock.now();
      await db.transaction(async (tx) => {
        const done = await updateQrLogin(tx, key, ['pending', 'scanned'], now, {
          state: 'confirmed',
          userId: auth.userId,
          expiresAt: new Date(now.getTime() + QR_TTL_MS),
        });
        if (!done) throw new AppError(400, ERROR_MESSAGES.qrInvalid);
        await audit(
          tx,
          ctx,
          { action: 'login.qr.confirm', entityType: 'qr_login', entityId: sha256Hex(key).slice(0, 16) },
          now,
        );
      });
    },

    async logout(auth: AuthContext, ctx: AuditContext): Promise<void> {
      await db.transaction(async (tx) => {
        await sessions.revoke(tx, auth.sessionId);
        await audit(tx, ctx, { action: 'logout', entityType: 'session', entityId: auth.sessionId }, clock.now());
      });
    },

    /** System administrators only: act in another tenant. Clears the current project. */
    async changeTenant(auth: AuthContext, tenantCode: string, ctx: AuditContext): Promise<void> {
      if (!auth.isSysAdmin) throw new AppError(403, ERROR_MESSAGES.forbidden);
      const tenant = await findTenantByCode(db, tenantCode);
      if (!tenant) throw new AppError(404, ERROR_MESSAGES.tenantNotFound);
      await db.transaction(async (tx) => {
        await sessions.setScope(tx, auth.sessionId, { tenantId: tenant.id, projectId: null });
        await audit(
          tx,
          ctx,
          {
            action: 'tenant.switch',
            entityType: 'session',
            entityId: auth.sessionId,
            oldValue: { tenantCode: auth.tenantCode, projectId: auth.projectId },
            newValue: { tenantCode: tenant.code, projectId: null },
          },
          clock.now(),
        );
        // The tenant entered keeps its own record of the system administrator coming in.
        if (tenant.id !== auth.tenantId)
          await audit(
            tx,
            ctx,
            {
              action: 'tenant.switch',
              entityType: 'session',
              entityId: auth.sessionId,
              oldValue: { tenantCode: auth.tenantCode },
              newValue: { tenantCode: tenant.code, projectId: null },
              tenantId: tenant.id,
            },
            clock.now(),
          );
      });
    },
  };
}
