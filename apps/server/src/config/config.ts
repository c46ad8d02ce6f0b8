import path from 'node:path';
import { z } from 'zod';

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'TRUE', 'FALSE', 'True', 'False'], { error: '应为 true/false/1/0' })
    .optional()
    .transform((v) => (v === undefined ? fallback : v.toLowerCase() === 'true' || v === '1'));

const int = (fallback: number, min: number, max: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `应为 ${min} 到 ${max} 之间的整数` });
        return z.NEVER;
      }
      return n;
    });

/** A base64 key of exactly 32 bytes (optional: the embedded database falls back to a generated key file). */
const key32 = () =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return undefined;
      const bytes = Buffer.from(v.trim(), 'base64');
      if (bytes.length !== 32 || !/^[A-Za-z0-9+/]+={0,2}$/.test(v.trim())) {
        ctx.addIssue({ code: 'custom', message: '应为 base64 编码的 32 字节密钥（openssl rand -base64 32）' });
        return z.NEVER;
      }
      return bytes;
    });

const pgUrl = () =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()))
    .refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), '应以 postgres:// 或 postgresql:// 开头');

const envSchema = z.object({
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: int(3000, 0, 65535),
  DATA_DIR: z.string().min(1).default('./.data'),
  DATABASE_URL: pgUrl(),
  DATABASE_OWNER_URL: pgUrl(),
  DATABASE_REPLICA_URL: pgUrl(),
  DATABASE_APP_ROLE: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()))
    .refine(
      (v) => v === undefined || /^[a-z_][a-z0-9_]{0,62}$/.test(v),
      '应为小写字母、数字或下划线组成的角色名（最多 63 个字符，不以数字开头）',
    ),
  EMBEDDED_PG_PORT: int(54329, 1, 65535),
  CAPTCHA_ENABLED: bool(true),
  SMS_LOGIN_ENABLED: bool(true),
  QR_LOGIN_ENABLED: bool(true),
  SESSION_IDLE_MINUTES: int(30, 1, 24 * 60),
  SESSION_ABSOLUTE_HOURS: int(12, 1, 24 * 30),
  UPLOAD_MAX_BYTES: int(20 * 1024 * 1024, 1, 1024 * 1024 * 1024),
  UPLOAD_MAX_FILES: int(10, 1, 100),
  LOGIN_MAX_FAILURES: int(5, 1, 100),
  LOGIN_LOCK_MINUTES: int(15, 1, 24 * 60),
  LOGIN_RATE_LIMIT_PER_MINUTE: int(20, 1, 100_000),
  WEB_DIST: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SEED_DEMO: bool(true),
  TRUST_PROXY: bool(false),
  PHI_ENCRYPTION_KEY: key32(),
  PHI_BLIND_INDEX_KEY: key32(),
  // default: on, except under the test runner (tests start a job runner themselves)
  JOBS_ENABLED: bool(process.env.VITEST === undefined),
  JOBS_TICK_SECONDS: int(20, 1, 3600),
  REMINDER_INTERVAL_SECONDS: int(60, 10, 24 * 3600),
  REMINDER_SMS_ENABLED: bool(false),
  HSTS_ENABLED: bool(false),
  // default 180 days; at most 2 years
  HSTS_MAX_AGE: int(15_552_000, 0, 63_072_000),
});

export type AppConfig = {
  host: string;
  port: number;
  dataDir: string;
  /** The app's own connection (DATABASE_URL): a role that owns no table (ADR 0015); unset = the embedded database. */
  databaseUrl: string | undefined;
  /**
   * The owner's connection the migrations run as (DATABASE_OWNER_URL); undefined = DATABASE_URL, the app then runs as
   * the owner (a warning at start). Ignored on the embedded database, whose superuser migrates.
   */
  databaseOwnerUrl: string | undefined;
  /** A read-only replica for exports and analysis reads (DATABASE_REPLICA_URL); undefined = the primary. */
  databaseReplicaUrl: string | undefined;
  /**
   * The app's role (DATABASE_APP_ROLE): on the embedded database the role created for the app (default
   * `registry_app`); on an external one the role granted to after migrations (default: DATABASE_URL's user).
   */
  databaseAppRole: string | undefined;
  embeddedPgPort: number;
  captchaEnabled: boolean;
  smsLoginEnabled: boolean;
  qrLoginEnabled: boolean;
  sessionIdleMinutes: number;
  sessionAbsoluteHours: number;
  uploadMaxBytes: number;
  uploadMaxFiles: number;
  loginMaxFailures: number;
  loginLockMinutes: number;
  /** Per-IP sign-in attempts (and SMS requests) a minute; captcha and QR images get three times as many. */
  loginRateLimitPerMinute: number;
  webDist: string;
  logLevel: string;
  seedDemo: boolean;
  trustProxy: boolean;
  /** AES-256-GCM key of identity numbers and phones (PHI_ENCRYPTION_KEY); undefined = the key file of DATA_DIR. */
  phiEncryptionKey: Buffer | undefined;
  /** HMAC-SHA256 key of the blind indexes (PHI_BLIND_INDEX_KEY); undefined = the key file of DATA_DIR. */
  phiBlindIndexKey: Buffer | undefined;
  /** Durable scheduled jobs (reminders) run in this process (JOBS_ENABLED; the test app turns them off). */
  jobsEnabled: boolean;
  /** How often the job runner looks for a due job (JOBS_TICK_SECONDS). */
  jobsTickSeconds: number;
  /** How often the follow-up reminder job runs (REMINDER_INTERVAL_SECONDS). */
  reminderIntervalSeconds: number;
  /** Follow-up reminders also go out as SMS to the recipient's phone (REMINDER_SMS_ENABLED). */
  reminderSmsEnabled: boolean;
  /** `Strict-Transport-Security` on every answer (HSTS_ENABLED): only for a deployment served over TLS. */
  hstsEnabled: boolean;
  /** Its `max-age` in seconds (HSTS_MAX_AGE). */
  hstsMaxAge: number;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`配置错误 (configuration error):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses the environment. Relative paths resolve against `cwd` (the repository root under `npm start`). Throws a
 * ConfigError listing every bad variable.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => `${i.path.join('.')}=${JSON.stringify(env[String(i.path[0])])}: ${i.message}`),
    );
  }
  const e = parsed.data;
  return {
    host: e.HOST,
    port: e.PORT,
    dataDir: path.resolve(cwd, e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databaseOwnerUrl: e.DATABASE_OWNER_URL,
    databaseReplicaUrl: e.DATABASE_REPLICA_URL,
    databaseAppRole: e.DATABASE_APP_ROLE,
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    captchaEnabled: e.CAPTCHA_ENABLED,
    smsLoginEnabled: e.SMS_LOGIN_ENABLED,
    qrLoginEnabled: e.QR_LOGIN_ENABLED,
    sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
    sessionAbsoluteHours: e.SESSION_ABSOLUTE_HOURS,
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
    uploadMaxFiles: e.UPLOAD_MAX_FILES,
    loginMaxFailures: e.LOGIN_MAX_FAILURES,
    loginLockMinutes: e.LOGIN_LOCK_MINUTES,
    loginRateLimitPerMinute: e.LOGIN_RATE_LIMIT_PER_MINUTE,
    webDist: path.resolve(cwd, e.WEB_DIST ?? 'apps/web/dist'),
    logLevel: e.LOG_LEVEL,
    seedDemo: e.SEED_DEMO,
    trustProxy: e.TRUST_PROXY,
    phiEncryptionKey: e.PHI_ENCRYPTION_KEY,
    phiBlindIndexKey: e.PHI_BLIND_INDEX_KEY,
    jobsEnabled: e.JOBS_ENABLED,
    jobsTickSeconds: e.JOBS_TICK_SECONDS,
    reminderIntervalSeconds: e.REMINDER_INTERVAL_SECONDS,
    reminderSmsEnabled: e.REMINDER_SMS_ENABLED,
    hstsEnabled: e.HSTS_ENABLED,
    hstsMaxAge: e.HSTS_MAX_AGE,
  };
}
