/**
 * Patient-record benchmarks P1–P3 and P5 of quality.md, each figure of our code next to raw SQL doing the same database work,
 * measured in the same run, on the benchmark data set of `npm run seed:bench`:
 *
 * - P1 patient list page: 20 rows, tenant + center scoped (a center's data-entry user), filtered (status), sorted
 *   (enrolment date, newest first); page 1, page 1 of a new filter (with its count) and page 2,000 by cursor.
 *   Latency p50/p95 at concurrency 1. Target: p50 ≤ 2× raw. The raw query reads the same columns as ours (the
 *   patient's, its center's, the blank-sort flag and the CRF list-column values) and writes the same read audit.
 * - P2 patient detail with the audit of the read (`GET patient-info/{id}` with `patient.pii`: decrypt + audit row).
 *   Throughput at concurrency 4. Target: ≥ 0.35× raw.
 * - H the list and the detail over real HTTP (50 connections from a separate autocannon process) beside a bare
 *   Fastify hello-world in the same run: how far our routes are from the ceiling of any route. Printed, no target.
 * - P3 form save (`POST form-record/save`: validate, JSONB write, version check, value history, audit), at
 *   concurrency 4 and with 32 savers in one tenant. Beside it two raw sides: the same rows written by one prepared
 *   statement (record, value versions, audit), and a bare single-row UPDATE. Target: ≥ 0.5× the bare UPDATE. Every
 *   save changes the record. Also printed: the CPU one save takes in this process and in PostgreSQL (`/proc`), per
 *   side; with both cores busy, throughput is the cores over that sum, so it says what a ratio can reach here.
 * - P5 the CSV export of every patient (identified, the non-repeating forms without table fields: one file) by the
 *   export job itself, beside `COPY (the cursor's own query) TO STDOUT` into a file. Target ≥ 0.5× COPY's rows/s,
 *   first byte < 1 s, this process's peak memory printed (flat from 100k to 1M), every row written.
 *
 * "Raw" is hand-written SQL on a plain pg pool doing the database work the same answer needs under our rules (the rows,
 * and for reads of identified data the audit row in the same transaction): no HTTP, session, scope, ORM, validation,
 * decryption or serialisation. Its statements are prepared (named) where ours are (`runPrepared`). The ratio is then
 * the cost of our code. Every figure carries the machine's load average when it was taken: contention compresses
 * ratios toward 1, so a ratio measured under load flatters the slower side.
 *
 * P1–P3 run through the real application: `buildApp` with `app.inject`, signed in with a real password login and
 * session (`POST auth/login`, `GET web-project/change`). inject runs the whole Fastify lifecycle (routing, access hook,
 * zod validation, handler, serialisation) without a socket, so on 2 shared cores the figure is our code's, not the
 * kernel's loopback; H adds the socket. Both sides keep the same number of requests in flight from one Node process.
 *
 * Databases: `BENCH_TARGETS` (default `embedded,pg`) × `BENCH_SIZES` (default `100000`; the full run
 * `BENCH_SIZES=100000,1000000`). Each is seeded once and reused: embedded clusters under
 * `.tmp/bench/embedded-<N>/data`, databases `registry_bench_<checkout>_<N>` on `BENCH_PG_URL` (default the machine's PostgreSQL,
 * postgres://postgres@127.0.0.1:5432/postgres); re-seeded when BENCH_SEED_VERSION changes. `BENCH_SECONDS` (default 3)
 * is the length of one throughput round. Prints a table and writes JSON to bench/results/. Asserts nothing.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { format } from 'prettier';
import { Transform } from 'node:stream';
import { pipeline as streamPipeline } from 'node:stream/promises';
import { to as copyTo } from 'pg-copy-streams';
import { API_BASE, APP_CODE } from '@registry/shared/constants';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config/config';
import { listFields } from '@registry/shared/forms/walk';
import { BENCH_DEFINITION, BENCH_FORM_KEYS } from '../apps/server/src/db/bench-seed/bench-definition';
import {
  BENCH_PASSWORD,
  BENCH_PROJECT_CODE,
  BENCH_SEED_VERSION,
  BENCH_TENANT_CODE,
  BENCH_USERNAMES,
} from '../apps/server/src/db/bench-seed/bench-seed';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../apps/server/src/db/embedded-postgres';
import { runMigrations } from '../apps/server/src/db/migrate';
import { closePool, createPool } from '../apps/server/src/db/pool';
import { createDb } from '../apps/server/src/db/client';
import { createDefinitionCache } from '../apps/server/src/domain/crf/definition-cache';
import { patientScope } from '../apps/server/src/domain/scope/patient-scope.repository';
import { systemClock } from '../apps/server/src/lib/clock';
import { resolvePhiKeys } from '../apps/server/src/lib/phi-crypto';
import { createStorage, type ObjectStorage } from '../apps/server/src/lib/storage';
import { createExportRunner } from '../apps/server/src/modules/export/export-run';
import { patientsQuery } from '../apps/server/src/modules/export/export.repository';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TMP = path.join(ROOT, '.tmp', 'bench');
/** Names this checkout's benchmark databases, so two checkouts on one PostgreSQL never drop each other's. */
const CHECKOUT = createHash('sha1').update(ROOT).digest('hex').slice(0, 8);
const SIZES = (process.env.BENCH_SIZES ?? '100000').split(',').map((s) => Number(s.trim().replace(/_/g, '')));
const TARGETS = (process.env.BENCH_TARGETS ?? 'embedded,pg').split(',').map((s) => s.trim()) as Target[];
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ROUND_MS = Number(process.env.BENCH_SECONDS ?? 3) * 1000;
const CONCURRENCY = 4;
/** Savers in one tenant at once for P3's throughput round (each side's pool has 10 connections, as the app's). */
const SAVERS = 32;
const HTTP_CONNECTIONS = 50;
const LATENCY_RUNS = Number(process.env.BENCH_LATENCY_RUNS ?? 150);
/** `BENCH_ONLY=P1,P3` runs some of the benchmarks (default all). */
const ONLY = new Set((process.env.BENCH_ONLY ?? 'P1,P2,P3,H,P5').split(',').map((s) => s.trim()));
const quiet = { info: () => undefined, warn: () => undefined, error: (m: string) => process.stderr.write(`${m}\n`) };

type Target = 'embedded' | 'pg';
type Manifest = {
  version: number;
  patients: number;
  records: number;
  seconds: { setup: number; load: number; indexes: number; vacuum: number; total: number };
  seededAt: string;
};
type Metric = {
  id: string;
  metric: string;
  unit: 'ms' | 'req/s' | 'rows/s' | 'MB';
  ours: number;
  raw: number;
  /** ours / raw: a latency ratio (lower is better) or a throughput ratio (higher is better). */
  ratio: number;
  target: string;
  verdict: 'ok' | 'MISSED' | 'info';
  /** The machine's 1-minute load average when the figure was taken: contention compresses ratios toward 1. */
  load: number;
};

for (const s of SIZES) if (!Number.isInteger(s) || s < 1) throw new Error(`BENCH_SIZES: ${s} 不是正整数`);
for (const t of TARGETS) if (t !== 'embedded' && t !== 'pg') throw new Error(`BENCH_TARGETS: 未知的数据库 ${t}`);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

function dbUrl(admin: string, database: string): string {
  const url = new URL(admin);
  url.pathname = `/${database}`;
  return url.toString();
}

async function pgKeys(
  dir: string,
): Promise<{ PHI_ENCRYPTION_KEY: string; PHI_BLIND_INDEX_KEY: string; AUDIT_SEAL_KEY: string }> {
  const file = path.join(dir, 'keys.json');
  if (existsSync(file)) {
    const stored = JSON.parse(await readFile(file, 'utf8')) as Awaited<ReturnType<typeof pgKeys>>;
    // key files written before the audit seals had no seal key: the sealer needs one (ADR 0013)
    return { ...stored, AUDIT_SEAL_KEY: stored.AUDIT_SEAL_KEY ?? Buffer.alloc(32, 1).toString('base64') };
  }
  const keys = {
    PHI_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    PHI_BLIND_INDEX_KEY: randomBytes(32).toString('base64'),
    AUDIT_SEAL_KEY: randomBytes(32).toString('base64'),
  };
  await writeFile(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
}

/** Runs the generator as `npm run seed:bench` would, echoing its progress; answers its JSON summary. */
function runSeed(size: number, env: Record<string, string>): Promise<Manifest> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'apps/server/scripts/seed-bench.ts'), '--patients', String(size)],
      { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let last = '';
    let buffered = '';
    child.stdout.on('data', (d: Buffer) => {
      buffered += d.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const l of lines) {
        if (l.startsWith('{')) last = l;
        else process.stdout.write(`  ${l}\n`);
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`seed:bench 失败（退出码 ${code}）`));
      const report = JSON.parse(last) as Omit<Manifest, 'seededAt'>;
      resolve({
        version: report.version,
        patients: report.patients,
        records: report.records,
        seconds: report.seconds,
        seededAt: new Date().toISOString(),
      });
    });
  });
}

async function readManifest(dir: string): Promise<Manifest | undefined> {
  try {
    return JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
}

type Database = { url: string; env: Record<string, string>; manifest: Manifest; stop: () => Promise<void> };

/** The seeded database of a target and size: reused when its manifest matches, else (re)created and seeded. */
async function openDatabase(target: Target, size: number): Promise<Database> {
  const dir = path.join(TMP, `${target}-${size}`);
  await mkdir(dir, { recursive: true });
  let manifest = await readManifest(dir);
  const fresh = manifest?.version === BENCH_SEED_VERSION && manifest.patients === size;
  if (target === 'pg') {
    const database = `registry_bench_${CHECKOUT}_${size}`;
    const env = { ...(await pgKeys(dir)), DATABASE_URL: dbUrl(PG_ADMIN_URL, database) };
    if (!fresh) {
      const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${database}`);
      await admin.query(`CREATE DATABASE ${database}`);
      await admin.end();
      console.log(`生成 ${database}（${size.toLocaleString('en-US')} 名患者）…`);
      manifest = await runSeed(size, env);
      await writeFile(path.join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
    }
    if (!manifest) throw new Error('manifest missing');
    // A migration added since the seed (e.g. an index) applies here, as at a server start.
    await runMigrations(env.DATABASE_URL, { logger: quiet });
    return { url: env.DATABASE_URL, env, manifest, stop: async () => undefined };
  }
  const dataDir = path.join(dir, 'data');
  if (!fresh) {
    await rm(dataDir, { recursive: true, force: true });
    console.log(`生成内置数据库 ${dataDir}（${size.toLocaleString('en-US')} 名患者）…`);
    manifest = await runSeed(size, {
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      EMBEDDED_PG_PORT: String(await freePort()),
    });
    await writeFile(path.join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  }
  if (!manifest) throw new Error('manifest missing');
  const embedded: EmbeddedPostgres = await startEmbeddedPostgres({
    dataDir: path.join(dataDir, 'pg'),
    port: await freePort(),
    logger: quiet,
  });
  await runMigrations(embedded.connectionString, { logger: quiet });
  return { url: embedded.connectionString, env: { DATA_DIR: dataDir }, manifest, stop: () => embedded.stop() };
}

// ---------------------------------------------------------------------------------------------------------------
// Measuring

const pct = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

/** Latency at concurrency 1, ours and raw alternating call by call (drift hits both alike). */
async function latencies(ours: (i: number) => Promise<void>, raw: (i: number) => Promise<void>, runs = LATENCY_RUNS) {
  for (let i = 0; i < 20; i++) {
    await ours(i);
    await raw(i);
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    await ours(i);
    a.push(performance.now() - t);
    t = performance.now();
    await raw(i);
    b.push(performance.now() - t);
  }
  a.sort((x, y) => x - y);
  b.sort((x, y) => x - y);
  return { ours: { p50: pct(a, 0.5), p95: pct(a, 0.95) }, raw: { p50: pct(b, 0.5), p95: pct(b, 0.95) } };
}

/** A throughput round: completed calls per second, and the CPU each call cost this process and PostgreSQL. */
type Rate = { perSecond: number; nodeMs: number; pgMs: number };

/** Completed calls per second with `concurrency` calls in flight for ROUND_MS, and the CPU they took. */
async function rate(call: (i: number) => Promise<void>, concurrency = CONCURRENCY): Promise<Rate> {
  let next = 0;
  let done = 0;
  const before = postgresCpuMs(await benchBackends());
  const deadline = performance.now() + ROUND_MS;
  const started = performance.now();
  const node0 = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        await call(next++);
        done++;
      }
    }),
  );
  const perSecond = done / ((performance.now() - started) / 1000);
  const node = process.cpuUsage(node0);
  // the backends at the end (a pool may have opened one during the round: all its CPU is the round's)
  const after = postgresCpuMs([...new Set([...before.keys(), ...(await benchBackends())])]);
  let pgMs = 0;
  for (const [pid, ms] of after) pgMs += ms - (before.get(pid) ?? 0);
  const pgPerCall = existsSync('/proc/self/stat') ? pgMs / done : Number.NaN;
  return { perSecond, nodeMs: (node.user + node.system) / 1000 / done, pgMs: pgPerCall };
}

/**
 * The server processes of the benchmark database's connections (both pools: ours and the raw side's, kept open by
 * their pools across a round): only their CPU counts, not that of other databases or clusters on the machine (a test
 * run, another checkout). Set by `benchOne` for the database it measures.
 */
let benchBackends: () => Promise<number[]> = async () => [];

/**
 * CPU milliseconds used so far by each of the given PostgreSQL backends (Linux `/proc/<pid>/stat` utime + stime, in
 * clock ticks of 10 ms): a round's difference per backend is what its calls cost the database (the WAL writer and
 * checkpointer are not counted; a backend that closed during the round is missing at its end and left out). Empty
 * where /proc is missing.
 */
function postgresCpuMs(pids: readonly number[]): Map<number, number> {
  const ms = new Map<number, number>();
  if (!existsSync('/proc/self/stat')) return ms;
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // the connection closed meanwhile
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ms.set(pid, (Number(fields[11]) + Number(fields[12])) * 10);
  }
  return ms;
}

/** Every side warmed up, then two rounds each, the sides alternating (drift hits all alike); the mean of the rounds. */
async function rateRounds(concurrency: number, sides: ((i: number) => Promise<void>)[]): Promise<Rate[]> {
  for (const side of sides) await rate(side, concurrency); // warm-up (JIT, caches, prepared statements)
  const sums = sides.map(() => ({ perSecond: 0, nodeMs: 0, pgMs: 0 }));
  for (let round = 0; round < 2; round++)
    for (const [k, side] of sides.entries()) {
      const r = await rate(side, concurrency);
      const sum = sums[k];
      if (!sum) continue;
      sum.perSecond += r.perSecond / 2;
      sum.nodeMs += r.nodeMs / 2;
      sum.pgMs += r.pgMs / 2;
    }
  return sums;
}

async function rates(ours: (i: number) => Promise<void>, raw: (i: number) => Promise<void>) {
  const [a, b] = await rateRounds(CONCURRENCY, [ours, raw]);
  return { ours: a?.perSecond ?? 0, raw: b?.perSecond ?? 0 };
}

const load1 = () => Math.round((os.loadavg()[0] ?? 0) * 100) / 100;

const latencyMetric = (id: string, metric: string, ours: number, raw: number, limit: number): Metric => ({
  id,
  metric,
  unit: 'ms',
  ours,
  raw,
  ratio: ours / raw,
  target: `≤ ${limit}×`,
  verdict: ours / raw <= limit ? 'ok' : 'MISSED',
  load: load1(),
});
const rateMetric = (id: string, metric: string, ours: number, raw: number, floor: number): Metric => ({
  id,
  metric,
  unit: 'req/s',
  ours,
  raw,
  ratio: ours / raw,
  target: `≥ ${floor}×`,
  verdict: ours / raw >= floor ? 'ok' : 'MISSED',
  load: load1(),
});

// ---------------------------------------------------------------------------------------------------------------
// The application side

type Api = (method: 'GET' | 'POST', url: string, body?: unknown) => Promise<{ status: number; json: () => unknown }>;

async function signIn(app: FastifyInstance, username: string, projectId: string): Promise<{ api: Api; token: string }> {
  const call =
    (token?: string): Api =>
    async (method, url, body) => {
      const res = await app.inject({
        method,
        url: `${API_BASE}${url}`,
        headers: { 'x-app-code': APP_CODE, ...(token ? { authorization: `Bearer ${token}` } : {}) },
        ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
      });
      return { status: res.statusCode, json: () => res.json() };
    };
  const login = await call()('POST', '/auth/login', { loginType: 'password', username, password: BENCH_PASSWORD });
  if (login.status !== 200) throw new Error(`登录 ${username} 失败：${login.status}`);
  const token = (login.json() as { data: { token: string } }).data.token;
  const api = call(token);
  const change = await api('GET', `/web-project/change?projectId=${projectId}`);
  if (change.status !== 200) throw new Error(`进入基准项目失败：${change.status}`);
  return { api, token };
}

/** Requests per second of autocannon (its own process, 50 connections, ROUND_MS) against one URL. */
function httpLoad(options: { url: string; method?: string; headers?: Record<string, string>; body?: string }) {
  return new Promise<{ requests: number; errors: number; non2xx: number; p50: number; p99: number }>(
    (resolve, reject) => {
      const args = [
        path.join(ROOT, 'bench', 'http-load.mjs'),
        JSON.stringify({ ...options, connections: HTTP_CONNECTIONS, seconds: ROUND_MS / 1000 }),
      ];
      const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0 ? resolve(JSON.parse(out.trim())) : reject(new Error(`http-load 失败（退出码 ${code}）`)),
      );
    },
  );
}

/**
 * H: requests per second over real HTTP (50 connections from a separate autocannon process) of the list page and the
 * detail, beside a bare Fastify hello-world measured in the same run on the same machine: the ceiling of any route.
 */
async function benchHttp(app: FastifyInstance, token: string, detailIds: string[]): Promise<Metric[]> {
  const hello = Fastify({ logger: false });
  hello.get('/', async () => ({ hello: 'world' }));
  const helloUrl = await hello.listen({ host: '127.0.0.1', port: 0 });
  const appUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const headers = { 'x-app-code': APP_CODE, authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const list = {
      url: `${appUrl}${API_BASE}/patient-info/page`,
      method: 'POST',
      headers,
      body: JSON.stringify({ current: 1, size: 20, status: 'enrolled', sortField: 'enrolDate', sortOrder: 'desc' }),
    };
    const detail = { url: `${appUrl}${API_BASE}/patient-info/${detailIds[0]}`, headers };
    await httpLoad({ url: `${helloUrl}/` }); // warm-up
    await httpLoad(list);
    await httpLoad(detail);
    const ceiling = await httpLoad({ url: `${helloUrl}/` });
    const metrics: Metric[] = [];
    for (const [label, options] of [
      ['患者列表第 1 页', list],
      ['患者详情（含读取审计）', detail],
    ] as const) {
      const r = await httpLoad(options);
      if (r.errors > 0 || r.non2xx > 0) throw new Error(`H ${label}：${r.errors} 个错误，${r.non2xx} 个非 2xx 应答`);
      metrics.push({
        ...rateMetric('H', `HTTP ${label} vs Fastify hello-world（p99 ${r.p99} ms）`, r.requests, ceiling.requests, 0),
        verdict: 'info',
        target: '—',
      });
    }
    return metrics;
  } finally {
    await hello.close();
  }
}

function expectOk(res: { status: number; json: () => unknown }, what: string): void {
  if (res.status !== 200) throw new Error(`${what}：HTTP ${res.status} ${JSON.stringify(res.json())}`);
}

// ---------------------------------------------------------------------------------------------------------------
// One target and size

/**
 * What our list reads per row: the patient's columns, its center, whether the sort value is blank, and the values of
 * the CRF fields marked `listColumn` (one sub-select over the patient's first-instance records).
 */
const LIST_FIELDS = new Map<string, string[]>();
for (const { form, field, group } of listFields(BENCH_DEFINITION))
  if (field.listColumn && !group) LIST_FIELDS.set(form.key, [...(LIST_FIELDS.get(form.key) ?? []), field.key]);
const LIST_VALUE_FORMS = `case fr.form_key ${[...LIST_FIELDS]
  .map(
    ([form, keys]) =>
      `when '${form}' then jsonb_build_object(${keys.map((k) => `'${k}', fr.data -> '${k}'`).join(', ')})`,
  )
  .join(' ')} end`;
/** What the detail reads (`patientColumns`). */
const PATIENT_COLUMNS = `p.id, p.patient_no, p.name, p.gender, p.birth_date, p.hospital_no, p.id_number_enc, p.phone_enc,
  p.center_id, c.code as center_code, c.name as center_name, p.sub_project_id, p.enrol_date, p.status, p.seq,
  p.row_version, p.created_at, p.updated_at`;
const LIST_COLUMNS = `${PATIENT_COLUMNS}, (p.enrol_date) is null as sort_is_null,
  (select jsonb_object_agg(fr.form_key, ${LIST_VALUE_FORMS}) from form_records fr
    where fr.tenant_id = p.tenant_id and fr.patient_id = p.id and fr.instance = 1 and fr.deleted_at is null
      and fr.form_key in (${[...LIST_FIELDS.keys()].map((f) => `'${f}'`).join(', ')})) as list_values`;

/** The raw side prepares its statements as ours does (`runPrepared`): parsed once per connection, then a generic plan. */
const prepared = (name: string, text: string, values: unknown[]) => ({ name: `raw_${name}`, text, values });

async function benchOne(target: Target, size: number) {
  const db = await openDatabase(target, size);
  const pool = createPool(db.url, { max: 10, logger: quiet, applicationName: 'registry-bench-app' });
  const rawPool = new pg.Pool({ connectionString: db.url, max: 10, application_name: 'registry-bench-raw' });
  benchBackends = async () =>
    (
      await rawPool.query<{ pid: number }>(
        'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      )
    ).rows.map((r) => r.pid);
  rawPool.on('error', (err) => process.stderr.write(`raw pool: ${err.message}\n`)); // an idle connection's error
  let app: FastifyInstance | undefined;
  try {
    const config = loadConfig({
      ...db.env,
      CAPTCHA_ENABLED: 'false',
      LOG_LEVEL: 'silent',
      LOGIN_RATE_LIMIT_PER_MINUTE: '100000',
      SEED_DEMO: 'false',
      // no job workers (the audit sealer, reminders) beside the figures: their periodic work would land on one side
      JOBS_ENABLED: 'false',
    });
    // The embedded target reads its keys from DATA_DIR (as `npm start`); the app gets its pool, not a URL.
    if (target === 'embedded') config.databaseUrl = undefined;
    app = await buildApp({ config, pool, logger: false });
    await app.ready();

    const scope = await rawPool.query<{ tenant_id: string; project_id: string; center_id: string; user_id: string }>(
      `select p.tenant_id, p.id as project_id, c.id as center_id, u.id as user_id
         from projects p join tenants t on t.id = p.tenant_id
         join centers c on c.project_id = p.id and c.code = 'C01'
         join users u on u.tenant_id = t.id and u.username = $3
        where t.code = $1 and p.code = $2`,
      [BENCH_TENANT_CODE, BENCH_PROJECT_CODE, BENCH_USERNAMES.entry('C01')],
    );
    const s = scope.rows[0];
    if (!s) throw new Error('基准项目不存在');
    const counted = await rawPool.query<{ n: number }>(
      'select count(*)::int as n from patients where project_id = $1 and deleted_at is null',
      [s.project_id],
    );
    if (counted.rows[0]?.n !== size) throw new Error(`基准项目应有 ${size} 名患者，实际 ${counted.rows[0]?.n}`);
    const { api, token } = await signIn(app, BENCH_USERNAMES.entry('C01'), s.project_id);
    const metrics: Metric[] = [];

    // ---- P1: the list page
    const listWhere = `p.tenant_id = $1 and p.project_id = $2 and p.center_id = $3 and p.deleted_at is null
      and p.status = 'enrolled'`;
    const rawPage = async (offset: number, enrolTo = '9999-12-31') => {
      const client = await rawPool.connect();
      try {
        await client.query('BEGIN');
        const { rows } = await client.query<{ id: string }>(
          prepared(
            'list_page',
            `select ${LIST_COLUMNS} from patients p join centers c on c.id = p.center_id where ${listWhere}
               and p.enrol_date <= $5 order by p.enrol_date desc nulls last, p.seq desc limit 20 offset $4`,
            [s.tenant_id, s.project_id, s.center_id, offset, enrolTo],
          ),
        );
        await client.query(
          `insert into audit_events (tenant_id, project_id, actor_id, action, entity_type, new_value, request_id, ip)
           values ($1, $4, $2, 'patient.pii_read', 'patient', $3, 'bench', '127.0.0.1')`,
          [s.tenant_id, s.user_id, JSON.stringify({ patientIds: rows.map((r) => r.id) }), s.project_id],
        );
        await client.query('COMMIT');
        if (rows.length !== 20) throw new Error(`raw page returned ${rows.length} rows`);
      } finally {
        client.release();
      }
    };
    const listBody = { size: 20, status: 'enrolled', sortField: 'enrolDate', sortOrder: 'desc' };
    type ListAnswer = { data: { records: { id: string }[]; nextCursor: string | null } };
    const ourPage = async (current: number, cursor?: string) => {
      const res = await api('POST', '/patient-info/page', { ...listBody, current, ...(cursor ? { cursor } : {}) });
      expectOk(res, 'patient-info/page');
      return res.json() as ListAnswer;
    };
    // Page 2,000, or the last page when the data set has fewer (100,000 patients: a center's enrolled patients fill ~900).
    const matching = await rawPool.query<{ n: number }>(
      `select count(*)::int as n from patients p where ${listWhere}`,
      [s.tenant_id, s.project_id, s.center_id],
    );
    const deepPage = Math.min(2000, Math.floor((matching.rows[0]?.n ?? 0) / 20));
    // The cursor of the page before (as the web keeps it while paging forward), and the same position for raw SQL.
    const before = await ourPage(deepPage - 1);
    const cursor = before.data.nextCursor ?? undefined;
    if (!cursor) throw new Error('P1：列表没有返回 nextCursor');
    const lastBefore = before.data.records.at(-1)?.id;
    const position = await rawPool.query<{ enrol_date: string; seq: number }>(
      'select enrol_date::text, seq from patients where id = $1',
      [lastBefore],
    );
    const at = position.rows[0];
    if (!at) throw new Error('P1：找不到游标所在的行');
    const rawKeyset = async () => {
      const client = await rawPool.connect();
      try {
        await client.query('BEGIN');
        const { rows } = await client.query<{ id: string }>(
          prepared(
            'list_keyset',
            `select ${LIST_COLUMNS} from patients p join centers c on c.id = p.center_id where ${listWhere}
               and (p.enrol_date, p.seq) < ($4::date, $5::int)
              order by p.enrol_date desc nulls last, p.seq desc limit 20`,
            [s.tenant_id, s.project_id, s.center_id, at.enrol_date, at.seq],
          ),
        );
        await client.query(
          `insert into audit_events (tenant_id, project_id, actor_id, action, entity_type, new_value, request_id, ip)
           values ($1, $4, $2, 'patient.pii_read', 'patient', $3, 'bench', '127.0.0.1')`,
          [s.tenant_id, s.user_id, JSON.stringify({ patientIds: rows.map((r) => r.id) }), s.project_id],
        );
        await client.query('COMMIT');
        if (rows.length !== 20) throw new Error(`raw keyset page returned ${rows.length} rows`);
        return rows.map((r) => r.id);
      } finally {
        client.release();
      }
    };
    // The same rows on all sides.
    {
      const byOffset = (await ourPage(deepPage)).data.records.map((r) => r.id);
      const byCursor = (await ourPage(deepPage, cursor)).data.records.map((r) => r.id);
      const raw = await rawPool.query<{ id: string }>(
        `select p.id from patients p where ${listWhere} order by p.enrol_date desc nulls last, p.seq desc
          limit 20 offset $4`,
        [s.tenant_id, s.project_id, s.center_id, (deepPage - 1) * 20],
      );
      const rawIds = raw.rows.map((r) => r.id).join();
      if (byOffset.join() !== rawIds || byCursor.join() !== rawIds || (await rawKeyset()).join() !== rawIds)
        throw new Error(`P1：第 ${deepPage} 页与原生 SQL 的行不一致`);
    }
    const p1 = async (label: string, ours: () => Promise<unknown>, raw: () => Promise<unknown>) => {
      const l = await latencies(
        async () => void (await ours()),
        async () => void (await raw()),
      );
      metrics.push(latencyMetric('P1', `${label} p50`, l.ours.p50, l.raw.p50, 2));
      metrics.push({ ...latencyMetric('P1', `${label} p95`, l.ours.p95, l.raw.p95, 2), verdict: 'info', target: '—' });
    };
    if (ONLY.has('P1'))
      await p1(
        '列表第 1 页',
        () => ourPage(1),
        () => rawPage(0),
      );
    // A new filter each call (another enrolment date bound): our total is counted, not remembered; raw SQL counts the
    // same rows the same way (at most 100,001 index entries) besides its page.
    let day = 0;
    const nextBound = () => new Date(Date.UTC(2026, 9, 1) - (day++ % 3000) * 86_400_000).toISOString().slice(0, 10);
    const ourFresh = () =>
      api('POST', '/patient-info/page', { ...listBody, current: 1, enrolDateTo: nextBound() }).then((r) =>
        expectOk(r, 'patient-info/page'),
      );
    const rawFresh = async () => {
      const bound = nextBound();
      await rawPool.query(
        prepared(
          'list_count',
          `select count(*) from (select 1 from patients p where ${listWhere} and p.enrol_date <= $4 limit 100001) c`,
          [s.tenant_id, s.project_id, s.center_id, bound],
        ),
      );
      await rawPage(0, bound);
    };
    if (ONLY.has('P1')) await p1('新筛选条件的第 1 页（含计数）', ourFresh, rawFresh);
    if (ONLY.has('P1')) await p1(`列表第 ${deepPage} 页（游标）`, () => ourPage(deepPage, cursor), rawKeyset);

    // ---- P2: the detail with the audit of the read
    const ids = (
      await rawPool.query<{ id: string }>(
        `select id from patients where project_id = $1 and center_id = $2 and deleted_at is null
          order by md5(id::text) limit 5000`,
        [s.project_id, s.center_id],
      )
    ).rows.map((r) => r.id);
    const idAt = (i: number) => ids[i % ids.length] as string;
    const ourDetail = async (i: number) => expectOk(await api('GET', `/patient-info/${idAt(i)}`), 'patient-info/{id}');
    const rawDetail = async (i: number) => {
      const client = await rawPool.connect();
      try {
        await client.query('BEGIN');
        const { rows } = await client.query<{ id: string }>(
          prepared(
            'detail',
            `select ${PATIENT_COLUMNS} from patients p join centers c on c.id = p.center_id
              where p.tenant_id = $1 and p.project_id = $2 and p.center_id = $3 and p.deleted_at is null and p.id = $4`,
            [s.tenant_id, s.project_id, s.center_id, idAt(i)],
          ),
        );
        const row = rows[0];
        if (!row) throw new Error('raw detail: no row');
        await client.query(
          `insert into audit_events (tenant_id, project_id, actor_id, action, entity_type, entity_id, new_value,
             request_id, ip)
           values ($1, $5, $2, 'patient.pii_read', 'patient', $3, $4, 'bench', '127.0.0.1')`,
          [s.tenant_id, s.user_id, row.id, JSON.stringify({ patientIds: [row.id] }), s.project_id],
        );
        await client.query('COMMIT');
      } finally {
        client.release();
      }
    };
    if (ONLY.has('P2')) {
      const r = await rates(ourDetail, rawDetail);
      metrics.push(rateMetric('P2', '患者详情（含读取审计）', r.ours, r.raw, 0.35));
    }

    if (ONLY.has('H')) metrics.push(...(await benchHttp(app, token, ids)));

    // ---- P3: the form save
    const probe = await api('POST', '/form-record/save', {});
    if (!ONLY.has('P3')) {
      // left out by BENCH_ONLY
    } else if (probe.status === 404) {
      console.log('  P3：form-record/save 尚不存在，跳过');
    } else {
      metrics.push(...(await benchSave(api, rawPool, s, ids)));
    }

    // ---- P5: the CSV export of every patient
    if (ONLY.has('P5')) metrics.push(...(await benchExport(app, config, pool, rawPool, s.project_id, size)));

    return { target, size, seed: db.manifest, metrics };
  } finally {
    await rawPool.end();
    if (app) await app.close();
    await closePool(pool);
    await db.stop();
  }
}

/**
 * P3: saves of the vital-signs form of different patients, each sending the row version it read. Ours through
 * `POST form-record/save`. Two raw sides, each a prepared statement in autocommit: the same writes as ours (the record
 * row guarded by its version, a value version for the weight and the recalculated BMI, the audit event with the old
 * and new values, in one statement as `applyRecordWrite` does), and a bare single-row UPDATE, the ceiling of
 * quality.md. Each side saves its own records, so no side's versions collide with another's.
 */
async function benchSave(
  api: Api,
  rawPool: pg.Pool,
  s: { tenant_id: string; project_id: string; user_id: string },
  patientIds: string[],
): Promise<Metric[]> {
  const { rows } = await rawPool.query<SaveRow>(
    `select id, patient_id, row_version, data, status, version_id from form_records
      where project_id = $1 and form_key = $2 and patient_id = any($3) and deleted_at is null`,
    [s.project_id, BENCH_FORM_KEYS.vitals, patientIds],
  );
  if (rows.length < 300) throw new Error('P3：可保存的表单记录不足');
  const third = Math.floor(rows.length / 3);
  // Every save changes the weight (0.1–0.9 kg above the seeded one, never the value of the save before), so no save of
  // any side is a no-op: each writes its record, two value versions and an audit event.
  const seeded = (r: SaveRow) => Number(r.data.vs_weight) || 70;
  const weightOf = (r: SaveRow, n: number) => Math.round((seeded(r) + ((n % 9) + 1) / 10) * 10) / 10;
  const saver = (records: SaveRow[], write: (r: SaveRow, version: number, weight: number) => Promise<number>) => {
    const versions = new Map(records.map((r) => [r.id, r.row_version]));
    const saves = new Map<string, number>();
    return async (i: number) => {
      const r = records[i % records.length];
      if (!r) return;
      const n = saves.get(r.id) ?? 0;
      saves.set(r.id, n + 1);
      const before = versions.get(r.id) ?? r.row_version;
      const after = await write(r, before, weightOf(r, n));
      if (after !== before + 1) throw new Error(`P3：保存未写入（版本 ${before} → ${after}）`);
      versions.set(r.id, after);
    };
  };
  const ourSave = saver(rows.slice(0, third), async (r, rowVersion, weight) => {
    const res = await api('POST', '/form-record/save', {
      patientId: r.patient_id,
      formKey: BENCH_FORM_KEYS.vitals,
      instance: 1,
      rowVersion,
      data: { ...r.data, vs_weight: weight },
      action: r.status === 'draft' ? 'draft' : 'submit',
      reason: '基准测试：复核体重',
    });
    expectOk(res, 'form-record/save');
    return (res.json() as { data: { rowVersion: number } }).data.rowVersion;
  });
  const rawSameWork = saver(rows.slice(third, 2 * third), async (r, version, weight) => {
    const height = Number(r.data.vs_height) || 170;
    const bmi = Math.round((weight / (height / 100) ** 2) * 10) / 10;
    const values = (w: unknown, b: unknown) => ({ vs_weight: w, vs_bmi: b });
    const res = await rawPool.query<{ row_version: number }>(
      prepared(
        'save_same_work',
        `with upd as (
           update form_records set data = $1, row_version = row_version + 1, updated_by = $5, updated_at = now()
            where tenant_id = $4 and id = $2 and row_version = $3 and deleted_at is null
           returning id, project_id, patient_id, row_version),
         v as (
           insert into record_value_versions (tenant_id, project_id, patient_id, record_id, path, value, reason,
             source_type, record_row_version, actor_id, at)
           select $4, upd.project_id, upd.patient_id, upd.id, x.path, x.value, $6, 'manual', upd.row_version, $5, now()
             from upd cross join (values ('vs_weight', $7::jsonb), ('vs_bmi', $8::jsonb)) as x(path, value)),
         a as (
           insert into audit_events (tenant_id, project_id, actor_id, action, entity_type, entity_id, old_value,
             new_value, reason, request_id, ip)
           select $4, upd.project_id, $5, 'form_record.update', 'form_record', upd.id::text, $9, $10, $6, 'bench',
             '127.0.0.1' from upd)
         select row_version from upd`,
        [
          JSON.stringify({ ...r.data, vs_weight: weight, vs_bmi: bmi }),
          r.id,
          version,
          s.tenant_id,
          s.user_id,
          '基准测试：复核体重',
          JSON.stringify(weight),
          JSON.stringify(bmi),
          JSON.stringify({
            formKey: BENCH_FORM_KEYS.vitals,
            rowVersion: version,
            values: values(r.data.vs_weight, r.data.vs_bmi),
          }),
          JSON.stringify({ formKey: BENCH_FORM_KEYS.vitals, rowVersion: version + 1, values: values(weight, bmi) }),
        ],
      ),
    );
    const next = res.rows[0]?.row_version;
    if (next === undefined) throw new Error('raw save: stale version');
    return next;
  });
  const rawUpdate = saver(rows.slice(2 * third), async (r, version, weight) => {
    const res = await rawPool.query(
      prepared(
        'save_bare_update',
        'update form_records set data = $1, row_version = row_version + 1, updated_at = now() where id = $2 and row_version = $3',
        [JSON.stringify({ ...r.data, vs_weight: weight }), r.id, version],
      ),
    );
    if (res.rowCount !== 1) throw new Error('raw save: stale version');
    return version + 1;
  });
  const metrics: Metric[] = [];
  for (const concurrency of [CONCURRENCY, SAVERS]) {
    const [ours, same, bare] = await rateRounds(concurrency, [ourSave, rawSameWork, rawUpdate]);
    if (!ours || !same || !bare) throw new Error('P3：缺少一侧的结果');
    const label = `${concurrency} 个并发保存`;
    metrics.push({
      ...rateMetric('P3', `表单保存 vs 同样写入的原生 SQL（${label}）`, ours.perSecond, same.perSecond, 0.5),
      verdict: 'info',
      target: '—',
    });
    metrics.push(rateMetric('P3', `表单保存 vs 单行 UPDATE（${label}）`, ours.perSecond, bare.perSecond, 0.5));
    // Where a save's time goes: with every core busy, throughput is the cores over the CPU one save takes (Node
    // process + PostgreSQL), so these say what a ratio can reach on this machine.
    if (concurrency === CONCURRENCY) {
      const cpu = (side: string, a: number, b: number, of: string) => ({
        id: 'P3',
        metric: `每次保存的 CPU：${side}（${of}）`,
        unit: 'ms' as const,
        ours: a,
        raw: b,
        ratio: a / b,
        target: '—',
        verdict: 'info' as const,
        load: load1(),
      });
      metrics.push(cpu('Node 进程', ours.nodeMs, same.nodeMs, 'vs 同样写入'));
      metrics.push(cpu('PostgreSQL', ours.pgMs, same.pgMs, 'vs 同样写入'));
      metrics.push(cpu('合计', ours.nodeMs + ours.pgMs, same.nodeMs + same.pgMs, 'vs 同样写入'));
      metrics.push(cpu('合计', ours.nodeMs + ours.pgMs, bare.nodeMs + bare.pgMs, 'vs 单行 UPDATE'));
    }
  }
  return metrics;
}

type SaveRow = {
  id: string;
  patient_id: string;
  row_version: number;
  data: Record<string, unknown>;
  status: string;
  version_id: string;
};

// ---------------------------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------------------------
// P5: the export

/** Inlines a built query's parameters as literals: COPY takes none. Only for the benchmark's own values. */
function inlined(text: string, params: unknown[]): string {
  const literal = (v: unknown): string => {
    if (Array.isArray(v)) return `ARRAY[${v.map(literal).join(', ')}]::text[]`;
    if (typeof v === 'number') return String(v);
    if (typeof v === 'string') return pg.escapeLiteral(v);
    throw new Error(`P5：无法内联的参数 ${typeof v}`);
  };
  return text.replace(/\$(\d+)/g, (_, n: string) => literal(params[Number(n) - 1]));
}

/**
 * P5: an identified CSV export of every patient of the project (the non-repeating forms: one file, one row per
 * patient) by the export job itself — its snapshot, count, cursor, row mapping, CSV writer and a put to the local
 * object storage — against `COPY (the same query) TO STDOUT` read by a Node client into a file in the same directory,
 * in the same kind of transaction (repeatable read, JIT off). Rows per second, the first byte, and the peak of this
 * process's JS heap and buffers above their level before the export (flat from 100k to 1M when nothing is held; run
 * with `--expose-gc` for a clean baseline).
 */
async function benchExport(
  app: FastifyInstance,
  config: ReturnType<typeof loadConfig>,
  pool: pg.Pool,
  rawPool: pg.Pool,
  projectId: string,
  size: number,
): Promise<Metric[]> {
  const { api } = await signIn(app, BENCH_USERNAMES.owner, projectId);
  // the non-repeating forms without their table fields: one table, one CSV file (a table field is a file of its own)
  const forms = BENCH_DEFINITION.categories
    .flatMap((c) => c.forms)
    .filter((f) => f.repeating !== true)
    .map((f) => ({ key: f.key, fields: f.fields.filter((x) => x.type !== 'group').map((x) => x.key) }));
  const asked = await api('POST', '/retrieval/export', { format: 'csv', deidentified: false, forms });
  expectOk(asked, 'retrieval/export');
  const exportId = (asked.json() as { data: { id: string } }).data.id;
  const dir = path.join(TMP, `export-${size}`);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const inner = createStorage({ driver: 'local', dir });
  let firstByte = 0;
  const storage: ObjectStorage = {
    ...inner,
    put(key, body, options) {
      const meter = new Transform({
        transform(chunk, _encoding, callback) {
          if (!firstByte) firstByte = performance.now();
          callback(null, chunk);
        },
      });
      streamPipeline(body, meter).catch(() => undefined);
      return inner.put(key, meter, options);
    },
  };
  const run = createExportRunner({
    db: createDb(pool),
    pool,
    clock: systemClock,
    storage,
    definitions: createDefinitionCache(),
    keys: await resolvePhiKeys(config),
  });
  // what the process holds (JS heap and buffers), not its RSS: RSS keeps what an earlier run grew and never shrinks
  const held = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  global.gc?.();
  const baseline = held();
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, held())), 25);
  const started = performance.now();
  const job = { id: exportId, queue: 'retrieval.export', data: { exportId }, tenantId: null, userId: null };
  await run({ ...job, retryCount: 0, progress: async () => undefined });
  const oursSeconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const oursFirstByte = firstByte - started;
  const done = await rawPool.query<{ state: string; row_count: number; error: string | null }>(
    'select state, row_count, error from export_jobs where id = $1',
    [exportId],
  );
  const row = done.rows[0];
  if (row?.state !== 'completed') throw new Error(`P5：导出未完成（${row?.state} ${row?.error ?? ''}）`);
  if (row.row_count !== size) throw new Error(`P5：导出 ${row.row_count} 行，应为 ${size}`);
  const oursRate = size / oursSeconds;

  // the ceiling: the cursor's own query as COPY, in the same kind of transaction
  const scope = await rawPool.query<{ tenant_id: string; root: string }>(
    'select tenant_id, coalesce(parent_id, id) as root from projects where id = $1',
    [projectId],
  );
  const sc = scope.rows[0]!;
  const where = patientScope({
    tenantId: sc.tenant_id,
    userId: '00000000-0000-0000-0000-000000000000',
    projectId,
    rootProjectId: sc.root,
    centerId: null,
    permissions: [],
  });
  const built = patientsQuery(
    createDb(pool),
    where,
    true,
    forms.map((f) => f.key),
  ).toSQL();
  const client = await rawPool.connect();
  let copied: number;
  let copyFirstByte = 0;
  const copyStarted = performance.now();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    await client.query('SET LOCAL jit = off');
    await client.query('select count(*) from patients where project_id = $1 and deleted_at is null', [projectId]);
    const stream = client.query(copyTo(`COPY (${inlined(built.sql, built.params)}) TO STDOUT WITH (FORMAT csv)`));
    stream.once('data', () => (copyFirstByte = performance.now() - copyStarted));
    await streamPipeline(stream, createWriteStream(path.join(dir, 'copy.csv')));
    copied = stream.rowCount ?? 0;
    await client.query('COMMIT');
  } finally {
    client.release();
  }
  const copySeconds = (performance.now() - copyStarted) / 1000;
  if (copied !== size) throw new Error(`P5：COPY 输出 ${copied} 行，应为 ${size}`);
  await rm(dir, { recursive: true, force: true });
  inner.close();
  const copyRate = size / copySeconds;
  return [
    {
      ...rateMetric('P5', `CSV 导出 ${size.toLocaleString('en-US')} 名患者 vs COPY`, oursRate, copyRate, 0.5),
      unit: 'rows/s',
    },
    {
      id: 'P5',
      metric: '导出首字节（COPY 同列）',
      unit: 'ms',
      ours: oursFirstByte,
      raw: copyFirstByte,
      ratio: oursFirstByte / copyFirstByte,
      target: '< 1000 ms',
      verdict: oursFirstByte < 1000 ? 'ok' : 'MISSED',
      load: load1(),
    },
    {
      id: 'P5',
      metric: '导出时本进程堆与缓冲区峰值增量（0 行缺失）',
      unit: 'MB',
      ours: (peak - baseline) / 2 ** 20,
      raw: 0,
      ratio: 0,
      target: '随规模不变',
      verdict: 'info',
      load: load1(),
    },
  ];
}

function fmt(n: number, unit: Metric['unit']): string {
  if (unit === 'ms') return `${n.toFixed(2)} ms`;
  if (unit === 'MB') return `${n.toFixed(1)} MB`;
  return `${Math.round(n).toLocaleString('en-US')}/s`;
}

function printTable(title: string, metrics: Metric[]): void {
  const width = (s: string) => [...s].reduce((w, ch) => w + (/[\u2E80-\uFFFF]/.test(ch) ? 2 : 1), 0);
  const pad = (s: string, n: number) => s + ' '.repeat(Math.max(0, n - width(s)));
  const lpad = (s: string, n: number) => ' '.repeat(Math.max(0, n - width(s))) + s;
  console.log(`\n${title}`);
  console.log(
    `${pad('指标', 44)}${lpad('ours', 12)}${lpad('raw', 12)}${lpad('ratio', 8)}${lpad('target', 9)}  verdict  load`,
  );
  for (const m of metrics)
    console.log(
      `${pad(`${m.id} ${m.metric}`, 44)}${lpad(fmt(m.ours, m.unit), 12)}${lpad(fmt(m.raw, m.unit), 12)}` +
        `${lpad(`${m.ratio.toFixed(2)}×`, 8)}${lpad(m.target, 9)}  ${pad(m.verdict, 7)}  ${m.load.toFixed(2)}`,
    );
}

async function main() {
  const started = Date.now();
  if (process.env.BENCH_PREPARE_ONLY === '1') {
    // Seed (or check) every database, measure nothing: `BENCH_PREPARE_ONLY=1 BENCH_SIZES=... npm run bench`.
    for (const size of SIZES)
      for (const target of TARGETS) {
        const db = await openDatabase(target, size);
        console.log(`${target} ${size}: ${JSON.stringify(db.manifest)}`);
        await db.stop();
      }
    return;
  }
  const runs = [];
  for (const size of SIZES)
    for (const target of TARGETS) {
      const t0 = Date.now();
      const run = await benchOne(target, size);
      const label = target === 'embedded' ? '内置 PostgreSQL' : '本机 PostgreSQL';
      printTable(
        `${label}，${size.toLocaleString('en-US')} 名患者（${run.seed.records.toLocaleString('en-US')} 条表单记录；` +
          `生成用时 ${run.seed.seconds.total} 秒），本轮 ${Math.round((Date.now() - t0) / 1000)} 秒`,
        run.metrics,
      );
      console.log(
        `load average ${os
          .loadavg()
          .map((v) => v.toFixed(2))
          .join(' ')}（${os.cpus().length} 核）`,
      );
      runs.push({ ...run, loadAverage: os.loadavg() });
    }
  const result = {
    generatedAt: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
    },
    concurrency: { latency: 1, throughput: CONCURRENCY },
    roundSeconds: ROUND_MS / 1000,
    runs,
    seconds: Math.round((Date.now() - started) / 1000),
  };
  await mkdir(path.join(ROOT, 'bench', 'results'), { recursive: true });
  // a partial run (BENCH_ONLY) writes a file of its own, never over the full run's
  const only = process.env.BENCH_ONLY ? `-${[...ONLY].join('-')}` : '';
  const file = path.join(ROOT, 'bench', 'results', `records${only}-${SIZES.join('-')}.json`);
  // formatted as `npm test`'s prettier check wants it (the file is committed)
  await writeFile(file, await format(JSON.stringify(result), { parser: 'json' }));
  console.log(`\n结果已写入 ${path.relative(ROOT, file)}（${result.seconds} 秒）`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(1);
});
