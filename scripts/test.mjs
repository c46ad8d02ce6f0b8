#!/usr/bin/env node
// `npm test`: every check and every test, in the order a failure is cheapest to see.
//   lint, format, typecheck → unit tests (shared, web) → server tests on the embedded PostgreSQL →
//   server tests on an existing PostgreSQL → build → first-route JavaScript (P7) → end-to-end tests in Chromium.
// The server suite runs a second time on the PostgreSQL named by TEST_PG_URL (default: the machine's
// postgres://postgres@127.0.0.1:5432/postgres when it answers). With REQUIRE_PG=1 (set by .ci/run) a PostgreSQL
// that does not answer is a failure, never a silent skip.
// lint + format and typecheck are single-threaded and independent: they run side by side (two lanes on two cores),
// each lane's output printed whole when it ends.
// Ends with the line "tests: N passed, N failed".
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const reports = join(root, '.tmp', 'test-reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const only = process.argv.slice(2); // e.g. `npm test -- unit server` runs just those steps
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
/** Failed tests by step, file and name, repeated at the end: a CI log is often read from its tail only. */
const failedTests = [];
/** [step, milliseconds], printed at the end with the load average so a slow run can be told from a busy machine. */
const timings = [];

function step(name, command, args, env = {}) {
  if (only.length > 0 && !only.includes(name)) return true;
  console.log(`\n━━ ${name}: ${command} ${args.join(' ')}`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  timings.push([name, Date.now() - started]);
  if (result.status !== 0) failures.push(name);
  return result.status === 0;
}

/** Like step(), without blocking: the output is collected and printed in one piece when the command ends. */
function stepAsync(name, command, args, env = {}) {
  if (only.length > 0 && !only.includes(name)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    const done = (code) => {
      timings.push([name, Date.now() - started]);
      const seconds = Math.round((Date.now() - started) / 1000);
      process.stdout.write(
        `\n━━ ${name}: ${command} ${args.join(' ')} (${seconds} s)\n${Buffer.concat(chunks).toString()}`,
      );
      if (code !== 0) failures.push(name);
      resolve(code === 0);
    };
    child.once('error', (err) => (chunks.push(Buffer.from(`${String(err)}\n`)), done(1)));
    child.once('close', done);
  });
}

/** Runs lanes side by side; each lane is a list of steps run one after the other. */
async function lanes(...list) {
  await Promise.all(
    list.map(async (lane) => {
      for (const [name, command, args, env] of lane) await stepAsync(name, command, args, env);
    }),
  );
}

function countVitest(step, file) {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += report.numPassedTests ?? 0;
  totals.failed += report.numFailedTests ?? 0;
  totals.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  for (const suite of report.testResults ?? []) {
    const where = suite.name.startsWith(root) ? suite.name.slice(root.length + 1) : suite.name;
    for (const test of suite.assertionResults ?? []) {
      if (test.status !== 'failed') continue;
      const reason = String(test.failureMessages?.[0] ?? '')
        .split('\n')[0]
        .slice(0, 300);
      failedTests.push(`${step} · ${where} › ${test.fullName}\n      ${reason}`);
    }
    // A file that failed to load has no tests, only its message.
    if ((suite.assertionResults ?? []).length === 0 && suite.status === 'failed') {
      failedTests.push(
        `${step} · ${where}\n      ${String(suite.message ?? '')
          .split('\n')[0]
          .slice(0, 300)}`,
      );
    }
  }
}

function countPlaywright(file) {
  if (!existsSync(file)) return;
  const { stats, suites } = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += stats.expected ?? 0;
  totals.failed += (stats.unexpected ?? 0) + (stats.flaky ?? 0);
  totals.skipped += stats.skipped ?? 0;
  const visit = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected' && test.status !== 'flaky') continue;
        const error = test.results?.find((r) => r.error)?.error?.message ?? '';
        failedTests.push(
          `e2e · ${spec.file}:${spec.line} › ${spec.title}\n      ${String(error).split('\n')[0].slice(0, 300)}`,
        );
      }
    }
    for (const child of suite.suites ?? []) visit(child);
  };
  for (const suite of suites ?? []) visit(suite);
}

function answers(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port || 5432) });
    socket.setTimeout(2000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

const vitest = (name, projects, env = {}) => {
  const file = join(reports, `${name}.json`);
  const ok = step(
    name,
    'npx',
    [
      'vitest',
      'run',
      ...projects.flatMap((p) => ['--project', p]),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${file}`,
    ],
    env,
  );
  if (only.length === 0 || only.includes(name)) countVitest(name, file);
  return ok;
};

await lanes(
  [
    ['lint', 'npx', ['eslint', '.', '--max-warnings', '0']],
    // the server's modules import each other without a cycle (apps/server/test/boundaries.test.ts proves the check)
    ['module-graph', 'node', ['scripts/module-graph.mjs']],
    ['format', 'npx', ['prettier', '--check', '.']],
  ],
  [['typecheck', 'npm', ['run', 'typecheck']]],
);
vitest('unit', ['shared', 'web']);
vitest('server', ['server'], { TEST_DATABASE_URL: '' });

const pgUrl = process.env.TEST_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
if (only.length === 0 || only.includes('server-pg')) {
  if (await answers(pgUrl)) {
    vitest('server-pg', ['server'], { TEST_DATABASE_URL: pgUrl });
  } else if (process.env.REQUIRE_PG === '1') {
    console.error(`\n✗ server-pg: PostgreSQL at ${pgUrl} does not answer, and REQUIRE_PG=1 expects it.`);
    failures.push('server-pg (PostgreSQL unreachable)');
  } else {
    console.log(`\n! server-pg: PostgreSQL at ${pgUrl} does not answer; the PostgreSQL run was skipped.`);
  }
}

if (step('build', 'npm', ['run', 'build'])) {
  // Quality P7 on the build just made: the first routes that meet 400 KiB gzip stay within it (byte counts).
  step('first-route-size', 'node', ['apps/web/scripts/first-route-size.mjs', '--check']);
  const file = join(reports, 'e2e.json');
  step('e2e', 'npx', ['playwright', 'test'], { PLAYWRIGHT_JSON_OUTPUT_NAME: file });
  if (only.length === 0 || only.includes('e2e')) countPlaywright(file);
} else if (only.length === 0 || only.includes('e2e')) {
  failures.push('e2e (not run: the build failed)');
}

console.log('');
if (timings.length > 0) {
  const load = loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
  console.log(`step times (load average now ${load}, ${availableParallelism()} cores):`);
  for (const [name, ms] of timings) console.log(`  ${name.padEnd(10)} ${(ms / 1000).toFixed(0).padStart(5)} s`);
}
if (failedTests.length > 0) console.log(`failed tests:\n${failedTests.map((t) => `  ${t}`).join('\n')}`);
if (failures.length > 0) console.log(`failed steps: ${failures.join(', ')}`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failures.length > 0 || totals.failed > 0 ? 1 : 0);
