import path from 'node:path';
import { z } from 'zod';
import type { S3StorageOptions } from '../lib/storage/s3';
import { checkStorageKey } from '../lib/storage/storage';

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

/** A text variable; empty or blank counts as not set. */
const optionalText = () =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));
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
  AUDIT_SEAL_KEY: key32(),
  AUDIT_SEAL_INTERVAL_SECONDS: int(60, 10, 3600),
  // default: on, except under the test runner (tests start the job queue themselves)
  JOBS_ENABLED: bool(process.env.VITEST === undefined),
  JOBS_POLL_MS: int(2000, 500, 60_000),
  JOBS_MAINTENANCE_SECONDS: int(60, 1, 3600),
  JOBS_CRON_SECONDS: int(30, 1, 45),
  REMINDER_INTERVAL_SECONDS: int(60, 10, 24 * 3600),
  REMINDER_SMS_ENABLED: bool(false),
  HSTS_ENABLED: bool(false),
  // default 180 days; at most 2 years
  HSTS_MAX_AGE: int(15_552_000, 0, 63_072_000),
  STORAGE_DRIVER: z.enum(['local', 's3'], { error: '应为 local 或 s3' }).default('local'),
  S3_ENDPOINT: optionalText().refine(
    (v) => v === undefined || /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(v),
    '应为 http:// 或 https:// 开头的地址，例如 https://s3.oss-cn-hangzhou.aliyuncs.com',
  ),
  S3_REGION: optionalText(),
  S3_BUCKET: optionalText().refine(
    (v) => v === undefined || /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(v),
    '应为 3 到 63 位小写字母、数字、点或连字符（首尾为字母或数字）',
  ),
  S3_ACCESS_KEY_ID: optionalText(),
  S3_SECRET_ACCESS_KEY: optionalText(),
  S3_FORCE_PATH_STYLE: bool(false),
  S3_PREFIX: optionalText().transform((v, ctx) => {
    if (v === undefined) return '';
    const trimmed = v.replace(/^\/+|\/+$/g, '');
    try {
      if (trimmed !== '') checkStorageKey(trimmed);
    } catch {
      ctx.addIssue({
        code: 'custom',
        message: '应为以 / 分隔的路径，例如 registry/ （不含 . 或 .. 段、控制字符或反斜杠）',
      });
      return z.NEVER;
    }
    return trimmed === '' ? '' : `${trimmed}/`;
  }),
});

/** Where stored files live (STORAGE_DRIVER): the local directory DATA_DIR/files, or an S3-compatible bucket. */
export type StorageConfig =
  { driver: 'local'; dir: string } | ({ driver: 's3' } & Omit<S3StorageOptions, 'listPageSize'>);

/** The S3 settings a start with STORAGE_DRIVER=s3 needs: every missing or half-given one, named. */
function storageConfig(e: z.infer<typeof envSchema>, dataDir: string): StorageConfig | string[] {
  if (e.STORAGE_DRIVER === 'local') return { driver: 'local', dir: path.join(dataDir, 'files') };
  const problems: string[] = [];
  if (!e.S3_BUCKET) problems.push('S3_BUCKET=undefined: STORAGE_DRIVER=s3 时必须设置存储桶名称');
  if (!e.S3_REGION)
    problems.push('S3_REGION=undefined: STORAGE_DRIVER=s3 时必须设置区域，例如 cn-hangzhou、ap-shanghai、us-east-1');
  if ((e.S3_ACCESS_KEY_ID === undefined) !== (e.S3_SECRET_ACCESS_KEY === undefined))
    problems.push(
      `${e.S3_ACCESS_KEY_ID === undefined ? 'S3_ACCESS_KEY_ID' : 'S3_SECRET_ACCESS_KEY'}=undefined: ` +
        'S3_ACCESS_KEY_ID 与 S3_SECRET_ACCESS_KEY 须同时设置（或都不设置，使用运行环境的凭证）',
    );
  if (problems.length > 0 || !e.S3_BUCKET || !e.S3_REGION) return problems;
  return {
    driver: 's3',
    ...(e.S3_ENDPOINT ? { endpoint: e.S3_ENDPOINT } : {}),
    region: e.S3_REGION,
    bucket: e.S3_BUCKET,
    ...(e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
      ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
      : {}),
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
    prefix: e.S3_PREFIX,
  };
}

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
  /** HMAC-SHA256 key of the audit seals and signed heads (AUDIT_SEAL_KEY); undefined = the key file of DATA_DIR. */
  auditSealKey: Buffer | undefined;
  /** How often the audit sealer job runs (AUDIT_SEAL_INTERVAL_SECONDS; a schedule counts minutes: under 60 s = every minute). */
  auditSealIntervalSeconds: number;
  /** The job queue's workers, cron and maintenance run in this process (JOBS_ENABLED; the test app turns them off). */
  jobsEnabled: boolean;
  /** How often an idle worker looks for a job, in ms (JOBS_POLL_MS, at least 500). */
  jobsPollMs: number;
  /**
   * How often active jobs past their expiry (a worker that died) are failed so another process retries them
   * (JOBS_MAINTENANCE_SECONDS).
   */
  jobsMaintenanceSeconds: number;
  /** How often the due cron schedules are turned into jobs, by one instance at a time (JOBS_CRON_SECONDS, 1–45). */
  jobsCronSeconds: number;
  /** How often the follow-up reminder job runs (REMINDER_INTERVAL_SECONDS). */
  reminderIntervalSeconds: number;
  /** Follow-up reminders also go out as SMS to the recipient's phone (REMINDER_SMS_ENABLED). */
  reminderSmsEnabled: boolean;
  /** `Strict-Transport-Security` on every answer (HSTS_ENABLED): only for a deployment served over TLS. */
  hstsEnabled: boolean;
  /** Its `max-age` in seconds (HSTS_MAX_AGE). */
  hstsMaxAge: number;
  /** Where uploaded files are stored (STORAGE_DRIVER and the S3_* settings). */
  storage: StorageConfig;
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
  const dataDir = path.resolve(cwd, e.DATA_DIR);
  const storage = storageConfig(e, dataDir);
  if (Array.isArray(storage)) throw new ConfigError(storage);
  return {
    host: e.HOST,
    port: e.PORT,
    dataDir,
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
    auditSealKey: e.AUDIT_SEAL_KEY,
    auditSealIntervalSeconds: e.AUDIT_SEAL_INTERVAL_SECONDS,
    jobsEnabled: e.JOBS_ENABLED,
    jobsPollMs: e.JOBS_POLL_MS,
    jobsMaintenanceSeconds: e.JOBS_MAINTENANCE_SECONDS,
    jobsCronSeconds: e.JOBS_CRON_SECONDS,
    reminderIntervalSeconds: e.REMINDER_INTERVAL_SECONDS,
    reminderSmsEnabled: e.REMINDER_SMS_ENABLED,
    hstsEnabled: e.HSTS_ENABLED,
    hstsMaxAge: e.HSTS_MAX_AGE,
    storage,
  };
}
