import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { API_BASE, APP_CODE } from '@registry/shared/constants';
import { buildApp, type AppDeps } from '../src/app';
import { loadConfig, type AppConfig } from '../src/config/config';
import { createDb, type Db } from '../src/db/client';
import { seedDemo, seedReferenceData } from '../src/db/seed';
import { createFakeClock } from '../src/lib/clock';
import type { SmsProvider } from '../src/modules/auth/sms-provider';
import { createTestDatabase, type TestDatabase } from './db';

export type SentSms = { phone: string; text: string };

export type TestApp = {
  app: FastifyInstance;
  db: Db;
  database: TestDatabase;
  config: AppConfig;
  clock: ReturnType<typeof createFakeClock>;
  dataDir: string;
  sms: SentSms[];
  /** A request to the API with the web's headers (and the token, when given). */
  api(options: InjectOptions & { token?: string }): Promise<LightMyRequestResponse>;
  /** Signs in with a password (captcha off unless the config turns it on) and returns the token. */
  login(username: string, password: string): Promise<string>;
  close(): Promise<void>;
};

export const FIXED_CAPTCHA = 'AbC4';

export type TestAppOptions = {
  /**
   * The demo data (tenant h001, owner/entry/nurse/… with Demo@2026, HF-REG and its CRF, demo patients). Default true;
   * a test that builds its own data with test/factories.ts passes false and gets the reference data only.
   */
  demo?: boolean;
};

/**
 * A migrated database of its own with the reference data (and the demo data unless `demo: false`), an app built on it
 * with a fake clock, a temporary data directory and an SMS provider that records what it sends.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  deps: Partial<Omit<AppDeps, 'config' | 'pool'>> = {},
  options: TestAppOptions = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const db = createDb(database.pool);
  await seedReferenceData(db);
  if (options.demo ?? true) await seedDemo(db);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'registry-server-test-'));
  const config = loadConfig({
    CAPTCHA_ENABLED: 'false',
    DATA_DIR: dataDir,
    WEB_DIST: path.join(dataDir, 'web'),
    LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
    // Many tests fail sign-ins from the one inject IP: the throttle and captcha rule get their own app (auth tests).
    LOGIN_MAX_FAILURES: '100',
    JOBS_ENABLED: 'false',
    ...env,
  });
  const clock = createFakeClock(new Date());
  const sms: SentSms[] = [];
  const smsProvider: SmsProvider = {
    send: async (phone, text) => {
      sms.push({ phone, text });
    },
  };
  const app = await buildApp({
    config,
    pool: database.pool,
    clock,
    smsProvider,
    captcha: () => ({ text: FIXED_CAPTCHA, svg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>' }),
    ...deps,
  });
  await app.ready();

  const api: TestApp['api'] = ({ token, headers, ...rest }) =>
    app.inject({
      ...rest,
      url:
        rest.url?.toString().startsWith('/') && !rest.url.toString().startsWith(API_BASE)
          ? `${API_BASE}${rest.url}`
          : rest.url,
      headers: { 'x-app-code': APP_CODE, ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    } as InjectOptions);

  const login: TestApp['login'] = async (username, password) => {
    const res = await api({
      method: 'POST',
      url: '/auth/login',
      payload: { loginType: 'password', username, password },
    });
    if (res.statusCode !== 200) throw new Error(`login ${username} failed: ${res.statusCode} ${res.body}`);
    return (res.json() as { data: { token: string } }).data.token;
  };

  return {
    app,
    db,
    database,
    config,
    clock,
    dataDir,
    sms,
    api,
    login,
    async close() {
      await app.close();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A test app with the reference data only: the test builds what it needs with test/factories.ts. */
export function createBareTestApp(
  env: Record<string, string> = {},
  deps: Partial<Omit<AppDeps, 'config' | 'pool'>> = {},
): Promise<TestApp> {
  return createTestApp(env, deps, { demo: false });
}

/** Rows in a table, for "nothing was written" assertions. */
export async function countRows(t: TestApp, table: string): Promise<number> {
  const { rows } = await t.database.pool.query<{ n: string }>(`select count(*)::text as n from ${table}`);
  return Number(rows[0]?.n ?? 0);
}
