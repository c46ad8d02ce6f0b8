import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3197);

/**
 * End-to-end tests drive the app exactly as `npm start` serves it (the built server and web app, a fresh embedded
 * PostgreSQL in .tmp/e2e-data) in Debian's Chromium. The image captcha is turned off (CAPTCHA_ENABLED=false):
 * a test cannot read it, and the server's captcha is covered by the server tests.
 */
export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? '.tmp/e2e-report.json' }]],
  outputDir: '.tmp/e2e-results',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: 'zh-CN',
    viewport: { width: 1440, height: 900 },
    screenshot: 'only-on-failure',
    trace: 'off',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: 'rm -rf .tmp/e2e-data && node --enable-source-maps apps/server/dist/main.js',
    url: `http://127.0.0.1:${port}/api/cmdb-template/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: '.tmp/e2e-data',
      EMBEDDED_PG_PORT: String(Number(process.env.E2E_PG_PORT ?? 54397)),
      DATABASE_URL: '',
      CAPTCHA_ENABLED: 'false',
      LOG_LEVEL: 'warn',
    },
  },
});
