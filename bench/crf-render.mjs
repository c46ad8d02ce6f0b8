/* global window */
/**
 * CRF renderer benchmark (quality.md P8): builds bench/crf (CrfForm with a generated 300-field form) with Vite, serves
 * it from a tiny static server on a free port and drives it with Chromium through playwright-core:
 *   (a) navigation start → form interactive (the page's `crf-interactive` mark), median of 5 loads;
 *   (b) keystroke latency (key event → the frame after the commit) typing 30 keys into a text field and 30 into a
 *       number field whose value drives the show-if of many fields: median and p95.
 * Prints figures and their ratio to the targets (300 ms, 50 ms) beside the machine's load average; asserts nothing.
 * BENCH_CRF_RUNS (default 3) repeats the whole measurement in a fresh page; every run is written with its load average
 * to bench/results/crf-render.json.
 */
import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const PAGE_DIR = join(ROOT, 'bench/crf');
// Under a dist/ folder: ignored by git, ESLint and Prettier like every build output.
const OUT_DIR = join(ROOT, '.tmp/bench-crf/dist');
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
const LOADS = 5;
const RUNS = Math.max(1, Number(process.env.BENCH_CRF_RUNS ?? 3));
const RESULT_FILE = join(ROOT, 'bench/results/crf-render.json');
const PROFILE = process.env.BENCH_PROFILE === '1';
const TARGET_RENDER_MS = 300;
const TARGET_KEY_MS = 50;
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

function loadLine() {
  return `load average ${loadavg()
    .map((v) => v.toFixed(2))
    .join(' ')}（${cpus().length} 核）`;
}

function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

async function buildPage() {
  // The web workspace's Vite and React plugin, as `npm run build -w apps/web` uses them.
  const fromWeb = createRequire(join(ROOT, 'apps/web/package.json'));
  const load = (name) => import(pathToFileURL(fromWeb.resolve(name)).href);
  const { build } = await load('vite');
  const { default: react } = await load('@vitejs/plugin-react');
  await build({
    root: PAGE_DIR,
    base: './',
    configFile: false,
    logLevel: 'error',
    plugins: [react()],
    // BENCH_PROFILE=1: React's profiling build, so the page can report render time per commit (slightly slower).
    resolve: PROFILE ? { alias: [{ find: /^react-dom\/client$/, replacement: 'react-dom/profiling' }] } : undefined,
    build: { outDir: OUT_DIR, emptyOutDir: true, chunkSizeWarningLimit: 5000 },
  });
}

function serve(dir) {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(
      /^(\.\.[/\\])+/,
      '',
    );
    const file = join(dir, path.endsWith('/') ? `${path}index.html` : path);
    try {
      if (!file.startsWith(dir)) throw new Error('outside');
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

/** Types `keys` one at a time, each after the previous one's frame; for the keys in `flips` also waits for show-if. */
async function typeAndMeasure(page, label, keys, flips = new Set()) {
  const input = page.getByLabel(label, { exact: true });
  await input.click();
  await page.evaluate(() => {
    window.__crfLatencies = [];
    window.__crfEventTimings = [];
    window.__crfCommits = [];
    window.__crfShowIfLatencies = [];
  });
  for (const [i, key] of keys.entries()) {
    await page.keyboard.press(key);
    await page.waitForFunction((n) => window.__crfLatencies.length >= n, i + 1);
    if (flips.has(i)) {
      const n = [...flips].filter((f) => f <= i).length;
      await page.waitForFunction((k) => window.__crfShowIfLatencies.length >= k, n, { timeout: 60_000 });
    }
  }
  return page.evaluate(() => ({
    latencies: window.__crfLatencies,
    events: window.__crfEventTimings,
    commits: window.__crfCommits,
    showIf: window.__crfShowIfLatencies,
  }));
}

async function measure(browser, url, run) {
  const context = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1440, height: 900 } });
  const loadBefore = loadavg();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));

  // (a) navigation start → interactive, one warm-up load (HTTP and compile caches), then LOADS measured loads.
  const loads = [];
  const renders = [];
  const completes = [];
  let fieldCount = 0;
  for (let i = 0; i <= LOADS; i++) {
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(() => performance.getEntriesByName('crf-complete').length > 0, null, {
      timeout: 30_000,
    });
    const [ms, renderStart, fullyRendered] = await page.evaluate(() => [
      performance.getEntriesByName('crf-interactive')[0].startTime,
      performance.getEntriesByName('crf-render-start')[0].startTime,
      performance.getEntriesByName('crf-complete')[0].startTime,
    ]);
    fieldCount = await page.evaluate(() => window.__crfFieldCount);
    if (i > 0) {
      loads.push(ms);
      renders.push(ms - renderStart);
      completes.push(fullyRendered);
    }
  }
  if (errors.length > 0) throw new Error(`基准页面出错：${errors.join('；')}`);

  // (b) keystrokes: 30 characters into the text field; 30 into the number field, 150 ⇄ blank so that each pass
  // shows and hides the fields whose show-if reads it.
  const text = await typeAndMeasure(page, '备注（基准）', [...'abcdefghijklmnopqrstuvwxyz1234']);
  const numberKeys = [];
  for (let i = 0; i < 5; i++) numberKeys.push('1', '5', '0', 'Backspace', 'Backspace', 'Backspace');
  // 15 → 150 and 150 → 15 flip the show-if of the fields that read `[bench_num] > 100`.
  const flips = new Set(numberKeys.flatMap((_k, i) => (i % 6 === 2 || i % 6 === 3 ? [i] : [])));
  const number = await typeAndMeasure(page, '收缩压（基准）', numberKeys, flips);
  if (errors.length > 0) throw new Error(`基准页面出错：${errors.join('；')}`);

  const rows = [
    ['首次可交互 (median of 5)', quantile(loads, 0.5), TARGET_RENDER_MS],
    ['  其中渲染（脚本就绪 → 可交互）', quantile(renders, 0.5), TARGET_RENDER_MS],
    ['全部字段渲染完成 (median)', quantile(completes, 0.5), null],
    ['按键延迟 文本 median', quantile(text.latencies, 0.5), TARGET_KEY_MS],
    ['按键延迟 文本 p95', quantile(text.latencies, 0.95), TARGET_KEY_MS],
    ['按键延迟 数字+显示条件 median', quantile(number.latencies, 0.5), TARGET_KEY_MS],
    ['按键延迟 数字+显示条件 p95', quantile(number.latencies, 0.95), TARGET_KEY_MS],
    // The keys that flip visibility (150 ⇄ 15): until the dependent fields have appeared or gone.
    [`显示条件生效 median (${number.showIf.length} 次)`, quantile(number.showIf, 0.5), TARGET_KEY_MS],
    ['显示条件生效 p95', quantile(number.showIf, 0.95), TARGET_KEY_MS],
  ];
  const loadAfter = loadavg();
  console.log(`CRF 渲染（Chromium ${browser.version()}，${fieldCount} 个字段），第 ${run} / ${RUNS} 轮  ${loadLine()}`);
  console.log(['指标'.padEnd(30), 'value ms'.padStart(10), 'target ms'.padStart(11), 'ratio'.padStart(8)].join(''));
  for (const [name, value, target] of rows) {
    console.log(
      [
        name.padEnd(30),
        value.toFixed(1).padStart(10),
        (target === null ? '—' : String(target)).padStart(11),
        (target === null ? '—' : (value / target).toFixed(2)).padStart(8),
      ].join(''),
    );
  }
  console.log(`各次加载 ms：${loads.map((v) => v.toFixed(0)).join(', ')}`);
  const slow = [...text.events, ...number.events].filter((e) => e.name.startsWith('key') && e.interactionId > 0);
  const worst = slow.reduce((m, e) => Math.max(m, e.duration), 0);
  console.log(
    `Event Timing：60 次按键中 ${new Set(slow.map((e) => e.interactionId)).size} 次交互 ≥ 16 ms` +
      (slow.length > 0 ? `，最长 ${worst.toFixed(0)} ms` : ''),
  );
  if (PROFILE) {
    for (const [name, run] of [
      ['文本', text],
      ['数字', number],
    ]) {
      const actual = run.commits.map((c) => c.actual);
      const base = run.commits.map((c) => c.base);
      console.log(
        `React 提交（${name}，${run.commits.length} 次）：渲染 median ${quantile(actual, 0.5).toFixed(1)} ms，` +
          `p95 ${quantile(actual, 0.95).toFixed(1)} ms；全量渲染 median ${quantile(base, 0.5).toFixed(1)} ms`,
      );
    }
  }
  await context.close();
  return {
    run,
    loadAverageBefore: loadBefore,
    loadAverageAfter: loadAfter,
    fields: fieldCount,
    ms: Object.fromEntries(rows.map(([name, value]) => [name.trim(), Math.round(value * 10) / 10])),
    loadsMs: loads.map((v) => Math.round(v)),
    textKeyMs: text.latencies.map((v) => Math.round(v)),
    numberKeyMs: number.latencies.map((v) => Math.round(v)),
    passes: rows.filter(([, , target]) => target !== null).every(([, value, target]) => value <= target),
  };
}

export async function runCrfRenderBench() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`找不到 Chromium：${CHROMIUM}（安装 Debian 的 chromium 软件包，或用 CHROMIUM_PATH 指定）`);
  }
  const t0 = Date.now();
  await buildPage();
  console.log(`基准页面已构建（${Date.now() - t0} ms）：${OUT_DIR}`);
  const server = await serve(OUT_DIR);
  const url = `http://127.0.0.1:${server.address().port}/index.html`;
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  const runs = [];
  try {
    console.log(loadLine());
    for (let run = 1; run <= RUNS; run++) runs.push(await measure(browser, url, run));
  } finally {
    await browser.close();
    server.close();
  }
  const result = {
    generatedAt: new Date().toISOString(),
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, node: process.version },
    chromium: CHROMIUM,
    targetsMs: { interactive: TARGET_RENDER_MS, keystroke: TARGET_KEY_MS },
    runs,
  };
  await mkdir(dirname(RESULT_FILE), { recursive: true });
  await writeFile(RESULT_FILE, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`结果已写入 bench/results/crf-render.json  ${loadLine()}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runCrfRenderBench().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
