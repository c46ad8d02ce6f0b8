/**
 * First-route JavaScript benchmark (quality.md P7): builds the app (`npm run build`, unless BENCH_NO_BUILD=1), starts
 * the built server as `npm start` runs it on a fresh embedded PostgreSQL with the demo data (the e2e set-up of
 * playwright.config.ts, captcha off), and drives Chromium through playwright-core to each route a user can land on
 * first, each in a fresh browser context (empty cache):
 *   /login; signing in there → /person/project (everything since /login); cold loads of /person/project, /home (a
 *   project chosen), /patient/list, /patient/add, /patient/file and /patient/edit (of the list's first patient),
 *   /followup/list and /followup/edit (of the worklist's first task, when the demo data has one today).
 * For each it prints the JavaScript the page loaded by the time the network is idle: gzip KiB (the `.gz` copies the
 * server sends a browser that accepts gzip only, as P7 counts) and the bytes that crossed the wire (brotli here,
 * Chromium accepts it), against the 400 KiB target, with the machine's load average (byte counts do not depend on it,
 * but the run is slower on a busy machine), and writes them to bench/results/bundle.json. Prints, never asserts.
 * BENCH_FILES=1 lists each route's files by size; BENCH_SHOTS=<dir> saves a screenshot of each cold load.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const WEB_DIST = join(ROOT, 'apps/web/dist');
const DATA_DIR = join(ROOT, '.tmp/bench-bundle-data');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// The flags of playwright.config.ts.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const TARGET_KIB = 400;
const RESULT_FILE = join(ROOT, 'bench/results/bundle.json');
const PROJECT = '心力衰竭注册登记研究';

export function loadLine() {
  const [one, five, fifteen] = loadavg();
  return `load average ${one.toFixed(2)} ${five.toFixed(2)} ${fifteen.toFixed(2)}`;
}

function freePort() {
  return new Promise((done, fail) => {
    const server = createServer();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

async function startServer() {
  const [port, pgPort] = [await freePort(), await freePort()];
  await rm(DATA_DIR, { recursive: true, force: true });
  const child = spawn(process.execPath, ['--enable-source-maps', join(ROOT, 'apps/server/dist/main.js')], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR,
      EMBEDDED_PG_PORT: String(pgPort),
      DATABASE_URL: '',
      CAPTCHA_ENABLED: 'false',
      LOG_LEVEL: 'warn',
    },
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`服务器启动失败：${stderr.slice(-2000)}`);
    try {
      const res = await fetch(`${base}/api/cmdb-template/health`);
      if (res.ok) return { base, child };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  child.kill('SIGTERM');
  throw new Error('服务器 180 秒内未就绪');
}

/** The JavaScript this document loaded from /assets/ (resource timing), by file name with its brotli wire bytes. */
async function scripts(page) {
  return page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((e) => /\/assets\/[^/]+\.js$/.test(new URL(e.name).pathname))
      .map((e) => ({ file: new URL(e.name).pathname.slice(1), wire: e.encodedBodySize })),
  );
}

function gzipBytes(file) {
  const gz = join(WEB_DIST, `${file}.gz`);
  return existsSync(gz) ? statSync(gz).size : statSync(join(WEB_DIST, file)).size;
}

function summarise(name, loaded) {
  const unique = new Map(loaded.map((s) => [s.file, s]));
  let gzip = 0;
  let wire = 0;
  for (const s of unique.values()) {
    gzip += gzipBytes(s.file);
    wire += s.wire;
  }
  const list = [...unique.keys()].map((file) => ({ file, gzipKiB: gzipBytes(file) / 1024 }));
  list.sort((a, b) => b.gzipKiB - a.gzipKiB);
  return { route: name, files: unique.size, gzipKiB: gzip / 1024, wireKiB: wire / 1024, list };
}

async function newPage(browser, base, storageState) {
  const context = await browser.newContext({
    baseURL: base,
    locale: 'zh-CN',
    viewport: { width: 1440, height: 900 },
    storageState,
  });
  // 250 entries by default; a route loads fewer, but do not let a full buffer hide any.
  await context.addInitScript(() => performance.setResourceTimingBufferSize(2000));
  const page = await context.newPage();
  return { context, page };
}

async function settle(page) {
  await page.waitForLoadState('networkidle');
}

export async function runBundleBench() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`找不到 Chromium：${CHROMIUM}（安装 Debian 的 chromium 软件包，或用 CHROMIUM_PATH 指定）`);
  }
  const loadBefore = loadavg();
  console.log(loadLine());
  if (process.env.BENCH_NO_BUILD !== '1') {
    const t0 = Date.now();
    const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    if (build.status !== 0) throw new Error('npm run build 失败');
    console.log(`已构建（${Date.now() - t0} ms）`);
  }
  const { base, child } = await startServer();
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  const rows = [];
  try {
    // /login, then signing in on the same page: the sign-in lands on /person/project without a reload.
    const first = await newPage(browser, base);
    await first.page.goto('/login');
    await first.page.getByLabel('用户名').waitFor();
    await settle(first.page);
    rows.push(summarise('/login', await scripts(first.page)));
    await first.page.getByLabel('用户名').fill('owner');
    await first.page.getByLabel('密码', { exact: true }).fill('Demo@2026');
    await first.page.getByRole('button', { name: /登\s*录/ }).click();
    await first.page.waitForURL(/\/person\/project$/);
    const enter = first.page.getByRole('button', { name: `进入项目 ${PROJECT}` });
    await enter.waitFor();
    await settle(first.page);
    rows.push(summarise('/login → 登录 → /person/project', await scripts(first.page)));
    const signedIn = await first.context.storageState();
    await enter.click();
    await first.page.waitForURL(/\/home$/);
    await settle(first.page);
    const inProject = await first.context.storageState();
    await first.context.close();

    // Cold loads (fresh cache) of the pages a signed-in user reopens or bookmarks. A record's page is opened through
    // the first link to it on the page before (the demo data has patients and follow-up tasks).
    const links = {};
    const cold = [
      {
        path: '/person/project',
        state: signedIn,
        ready: (p) => p.getByRole('button', { name: `进入项目 ${PROJECT}` }),
      },
      { path: '/home', state: inProject, ready: (p) => p.locator('.ant-layout-content') },
      {
        path: '/patient/list',
        state: inProject,
        ready: (p) => p.locator('a[href^="/patient/file?id="]'),
        collect: ['/patient/file', '/patient/edit'],
      },
      { path: '/patient/add', state: inProject, ready: (p) => p.getByRole('button', { name: /保\s*存/ }) },
      {
        path: '/patient/file',
        state: inProject,
        ready: (p) => p.getByText('表单完成情况'),
      },
      { path: '/patient/edit', state: inProject, ready: (p) => p.locator('.ant-layout-content .crf-field') },
      {
        path: '/followup/list',
        state: inProject,
        ready: (p) => p.getByRole('table'),
        collect: ['/followup/edit'],
      },
      { path: '/followup/edit', state: inProject, ready: (p) => p.locator('.ant-layout-content .ant-card') },
    ];
    for (const route of cold) {
      const url = route.collect === undefined && route.path in links ? links[route.path] : route.path;
      if (/^\/(patient|followup)\/(file|edit)$/.test(route.path) && !(route.path in links)) {
        console.log(`${route.path}：前一页没有指向它的链接，未测`);
        continue;
      }
      const { context, page } = await newPage(browser, base, route.state);
      await page.goto(url);
      await route.ready(page).first().waitFor();
      await settle(page);
      if (new URL(page.url()).pathname !== route.path) throw new Error(`${route.path} 跳转到了 ${page.url()}`);
      if (process.env.BENCH_SHOTS)
        await page.screenshot({ path: join(process.env.BENCH_SHOTS, `${route.path.replaceAll('/', '_')}.png`) });
      rows.push(summarise(`${route.path}（冷加载）`, await scripts(page)));
      for (const target of route.collect ?? []) {
        const href = await page.locator(`a[href^="${target}?id="]`).first().getAttribute('href');
        if (href) links[target] = href;
      }
      await context.close();
    }
  } finally {
    await browser.close();
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r()));
  }

  const chromiumVersion = browser.version();
  const loadAfter = loadavg();
  console.log(`首个路由的 JavaScript（Chromium ${chromiumVersion}），目标 ≤ ${TARGET_KIB} KiB gzip`);
  console.log(
    ['路由'.padEnd(34), 'files'.padStart(6), 'gzip KiB'.padStart(10), 'target'.padStart(8), 'ratio'.padStart(7)]
      .concat('wire(br) KiB'.padStart(14), '  结果')
      .join(''),
  );
  for (const row of rows) {
    console.log(
      [
        row.route.padEnd(34),
        String(row.files).padStart(6),
        row.gzipKiB.toFixed(1).padStart(10),
        String(TARGET_KIB).padStart(8),
        (row.gzipKiB / TARGET_KIB).toFixed(2).padStart(7),
        row.wireKiB.toFixed(1).padStart(14),
        row.gzipKiB <= TARGET_KIB ? '  达标' : `  超出 ${(row.gzipKiB - TARGET_KIB).toFixed(1)} KiB`,
      ].join(''),
    );
    if (process.env.BENCH_FILES === '1') {
      for (const f of row.list) console.log(`${''.padEnd(36)}${f.gzipKiB.toFixed(1).padStart(8)}  ${f.file}`);
    }
  }
  const over = rows.filter((row) => row.gzipKiB > TARGET_KIB).length;
  console.log(`${rows.length - over} / ${rows.length} 个路由达标  ${loadLine()}`);
  const round = (n) => Math.round(n * 10) / 10;
  const result = {
    generatedAt: new Date().toISOString(),
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? '', node: process.version },
    chromium: chromiumVersion,
    targetKiB: TARGET_KIB,
    loadAverageBefore: loadBefore.map(round),
    loadAverageAfter: loadAfter.map(round),
    routes: rows.map((row) => ({
      route: row.route,
      files: row.files,
      gzipKiB: round(row.gzipKiB),
      wireBrotliKiB: round(row.wireKiB),
      withinTarget: row.gzipKiB <= TARGET_KIB,
    })),
  };
  await mkdir(join(ROOT, 'bench/results'), { recursive: true });
  await writeFile(RESULT_FILE, `${JSON.stringify(result, null, 2)}\n`);
  console.log('结果已写入 bench/results/bundle.json');
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runBundleBench().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
