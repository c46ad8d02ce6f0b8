import pg from 'pg';
import { API_BASE, APP_CODE } from '@registry/shared/constants';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config/config';
import { createPool } from '../apps/server/src/db/pool';
import { readFileSync } from 'node:fs';

const keys = JSON.parse(readFileSync('.tmp/bench/pg-1000000/keys.json', 'utf8'));
const url = 'postgres://postgres@127.0.0.1:5432/registry_bench_1000000';
let log: { sql: string; ms: number }[] | null = null;
const orig = pg.Client.prototype.query;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
(pg.Client.prototype as any).query = function (this: pg.Client, ...args: any[]) {
  const t0 = performance.now();
  const text = typeof args[0] === 'string' ? args[0] : args[0]?.text;
  const record = () => log?.push({ sql: String(text).slice(0, 110).replace(/\s+/g, ' '), ms: performance.now() - t0 });
  const last = args[args.length - 1];
  if (typeof last === 'function') {
    args[args.length - 1] = (...cb: unknown[]) => { record(); return last(...cb); };
  } else if (args[0] && typeof args[0].callback === 'function') {
    const cb0 = args[0].callback;
    args[0].callback = (...cb: unknown[]) => { record(); return cb0(...cb); };
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const r = (orig as any).apply(this, args);
  if (r && typeof r.then === 'function') r.then(record, record);
  return r;
};
const config = loadConfig({ ...keys, DATABASE_URL: url, CAPTCHA_ENABLED: 'false', LOG_LEVEL: 'silent' });
const pool = createPool(url);
const app = await buildApp({ config, pool, logger: false });
const call = async (method: 'GET' | 'POST', u: string, token?: string, body?: unknown) => app.inject({ method, url: API_BASE + u, headers: { 'x-app-code': APP_CODE, ...(token ? { authorization: `Bearer ${token}` } : {}) }, ...(body ? { payload: body as object } : {}) });
const login = await call('POST', '/auth/login', undefined, { loginType: 'password', username: 'bench_entry_c01', password: 'Bench@2026' });
const token = login.json().data.token;
const p = await pool.query("select id from projects where code='BENCH-HF'");
await call('GET', `/web-project/change?projectId=${p.rows[0].id}`, token);
const body = { current: 1, size: 20, status: 'enrolled', sortField: 'enrolDate', sortOrder: 'desc' };
for (let i = 0; i < 30; i++) await call('POST', '/patient-info/page', token, body);
const patient = (await pool.query("select p.id from patients p join centers c on c.id=p.center_id and c.code='C01' limit 1")).rows[0].id;
for (let i = 0; i < 30; i++) await call('GET', `/patient-info/${patient}`, token);
const rec = (await pool.query("select id, patient_id, row_version, data, status from form_records where form_key='bench_vitals' and patient_id=$1", [patient])).rows[0];
let rv = rec.row_version;
const save = async () => {
  const r = await call('POST', '/form-record/save', token, { patientId: rec.patient_id, formKey: 'bench_vitals', instance: 1, rowVersion: rv, data: { ...rec.data, vs_weight: 50 + Math.round(Math.random() * 300) / 10 }, action: rec.status === 'draft' ? 'draft' : 'submit', reason: '基准' });
  if (r.statusCode !== 200) throw new Error(r.body);
  rv = r.json().data.rowVersion;
  return r;
};
for (let i = 0; i < 20; i++) await save();
if (process.env.PAGELOOP) { const t2 = performance.now(); for (let i = 0; i < 1500; i++) await call('POST', '/patient-info/page', token, body); console.log('page loop ms/op', (performance.now() - t2) / 1500); process.exit(0); }
if (process.env.LOOP) { const t0 = performance.now(); for (let i = 0; i < 400; i++) await save(); console.log('save loop ms/op', (performance.now() - t0) / 400); const t1 = performance.now(); for (let i = 0; i < 400; i++) await call('GET', `/patient-info/${patient}`, token); console.log('detail loop ms/op', (performance.now() - t1) / 400); const t2 = performance.now(); for (let i = 0; i < 400; i++) await call('POST', '/patient-info/page', token, body); console.log('page loop ms/op', (performance.now() - t2) / 400); process.exit(0); }
for (let rep = 0; rep < 2; rep++) for (const [name, fn] of [
  ['page', () => call('POST', '/patient-info/page', token, body)],
  ['detail', () => call('GET', `/patient-info/${patient}`, token)],
  ['save', save],
] as const) {
  log = [];
  const t0 = performance.now();
  await fn();
  const total = performance.now() - t0;
  const l = log;
  log = null;
  await new Promise((r) => setTimeout(r, 50));
  console.log(`\n${name}: ${total.toFixed(2)} ms, ${l.length} queries, sum ${l.reduce((s, q) => s + q.ms, 0).toFixed(2)} ms`);
  for (const q of l) console.log(`  ${q.ms.toFixed(2).padStart(6)}  ${q.sql}`);
}
await app.close();
await pool.end();
// EXPLAIN of our page query
const { drizzle } = await import('drizzle-orm/node-postgres');
void drizzle;
