import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('should use the documented defaults when nothing is set', () => {
    const c = loadConfig({}, '/srv/registry');
    expect(c).toEqual({
      host: '127.0.0.1',
      port: 3000,
      dataDir: '/srv/registry/.data',
      databaseUrl: undefined,
      databaseOwnerUrl: undefined,
      databaseReplicaUrl: undefined,
      databaseAppRole: undefined,
      embeddedPgPort: 54329,
      captchaEnabled: true,
      smsLoginEnabled: true,
      qrLoginEnabled: true,
      sessionIdleMinutes: 30,
      sessionAbsoluteHours: 12,
      uploadMaxBytes: 20 * 1024 * 1024,
      uploadMaxFiles: 10,
      loginMaxFailures: 5,
      loginLockMinutes: 15,
      loginRateLimitPerMinute: 20,
      webDist: path.resolve('/srv/registry', 'apps/web/dist'),
      logLevel: 'info',
      seedDemo: true,
      trustProxy: false,
      // on by default; off under the test runner unless JOBS_ENABLED says so
      jobsEnabled: false,
      jobsPollMs: 2000,
      jobsMaintenanceSeconds: 60,
      jobsCronSeconds: 30,
      reminderIntervalSeconds: 60,
      reminderSmsEnabled: false,
      auditSealIntervalSeconds: 60,
      hstsEnabled: false,
      hstsMaxAge: 180 * 24 * 60 * 60,
      storage: { driver: 'local', dir: '/srv/registry/.data/files' },
    });
  });

  it('should read the job settings and refuse a bad interval in Chinese', () => {
    const c = loadConfig(
      { JOBS_ENABLED: 'true', JOBS_POLL_MS: '500', JOBS_MAINTENANCE_SECONDS: '1', REMINDER_SMS_ENABLED: '1' },
      '/x',
    );
    expect(c).toMatchObject({
      jobsEnabled: true,
      jobsPollMs: 500,
      jobsMaintenanceSeconds: 1,
      reminderSmsEnabled: true,
    });
    expect(() => loadConfig({ JOBS_POLL_MS: '100' })).toThrow(/JOBS_POLL_MS="100": 应为 500 到 60000/);
    expect(() => loadConfig({ JOBS_CRON_SECONDS: '60' })).toThrow(/JOBS_CRON_SECONDS="60"/);
    expect(() => loadConfig({ REMINDER_INTERVAL_SECONDS: '1' })).toThrow(
      /REMINDER_INTERVAL_SECONDS="1": 应为 10 到 86400/,
    );
  });

  it('should read booleans written as true/false/1/0 and numbers', () => {
    const c = loadConfig(
      {
        CAPTCHA_ENABLED: '0',
        SMS_LOGIN_ENABLED: 'false',
        QR_LOGIN_ENABLED: '1',
        TRUST_PROXY: 'TRUE',
        PORT: '8080',
        DATABASE_URL: 'postgres://u@db:5432/r',
      },
      '/x',
    );
    expect(c).toMatchObject({
      captchaEnabled: false,
      smsLoginEnabled: false,
      qrLoginEnabled: true,
      trustProxy: true,
      port: 8080,
    });
    expect(c.databaseUrl).toBe('postgres://u@db:5432/r');
  });

  it('should list every bad variable in one readable error', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', CAPTCHA_ENABLED: 'yes', DATABASE_URL: 'mysql://x', SESSION_IDLE_MINUTES: '0' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    for (const name of ['PORT', 'CAPTCHA_ENABLED', 'DATABASE_URL', 'SESSION_IDLE_MINUTES'])
      expect(message).toContain(name);
    expect((error as ConfigError).problems).toHaveLength(4);
  });

  it('should read the owner, replica and app role settings and refuse a bad role name or URL by name', () => {
    const c = loadConfig({
      DATABASE_URL: 'postgres://app@db/r',
      DATABASE_OWNER_URL: 'postgres://owner@db/r',
      DATABASE_REPLICA_URL: 'postgresql://reader@replica/r',
      DATABASE_APP_ROLE: 'registry_app2',
    });
    expect(c).toMatchObject({
      databaseUrl: 'postgres://app@db/r',
      databaseOwnerUrl: 'postgres://owner@db/r',
      databaseReplicaUrl: 'postgresql://reader@replica/r',
      databaseAppRole: 'registry_app2',
    });
    expect(() => loadConfig({ DATABASE_APP_ROLE: 'app; drop role x' })).toThrow(/DATABASE_APP_ROLE=.*角色名/);
    expect(() => loadConfig({ DATABASE_OWNER_URL: 'mysql://x' })).toThrow(/DATABASE_OWNER_URL=.*postgres:\/\//);
  });

  it('should treat an empty DATABASE_URL as unset', () => {
    expect(loadConfig({ DATABASE_URL: '' }).databaseUrl).toBeUndefined();
  });

  it('should read the S3 storage settings, the prefix as a folder', () => {
    const c = loadConfig(
      {
        STORAGE_DRIVER: 's3',
        S3_ENDPOINT: 'https://s3.oss-cn-hangzhou.aliyuncs.com',
        S3_REGION: 'cn-hangzhou',
        S3_BUCKET: 'registry-files',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_PREFIX: '/医院甲/registry',
      },
      '/x',
    );
    expect(c.storage).toEqual({
      driver: 's3',
      endpoint: 'https://s3.oss-cn-hangzhou.aliyuncs.com',
      region: 'cn-hangzhou',
      bucket: 'registry-files',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      forcePathStyle: false,
      prefix: '医院甲/registry/',
    });
    const minio = loadConfig(
      {
        STORAGE_DRIVER: 's3',
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        S3_REGION: 'us-east-1',
        S3_BUCKET: 'reg',
        S3_FORCE_PATH_STYLE: 'true',
      },
      '/x',
    );
    expect(minio.storage).toMatchObject({ forcePathStyle: true, prefix: '' });
    expect(minio.storage).not.toHaveProperty('accessKeyId');
  });

  it('should refuse to start on S3 storage without a bucket or region, with half the keys, or with a bad endpoint', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env, '/x');
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as ConfigError).problems;
      }
      return [];
    };
    const missing = problems({ STORAGE_DRIVER: 's3', S3_ACCESS_KEY_ID: 'id' });
    expect(missing).toHaveLength(3);
    expect(missing.join('\n')).toMatch(/S3_BUCKET=.*必须设置存储桶名称/);
    expect(missing.join('\n')).toMatch(/S3_REGION=.*必须设置区域/);
    expect(missing.join('\n')).toMatch(/S3_SECRET_ACCESS_KEY=.*须同时设置/);
    const bad = problems({
      STORAGE_DRIVER: 'S3',
      S3_ENDPOINT: 'oss-cn-hangzhou.aliyuncs.com',
      S3_BUCKET: 'Registry_Files',
      S3_PREFIX: 'a/../b',
    });
    expect(bad.map((p) => p.split('=')[0])).toEqual(['STORAGE_DRIVER', 'S3_ENDPOINT', 'S3_BUCKET', 'S3_PREFIX']);
    expect(bad[0]).toContain('应为 local 或 s3');
    // the local directory needs none of them
    expect(problems({ S3_BUCKET: 'unused' })).toEqual([]);
  });
});
