import type { RouteOptions } from 'fastify';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldKinds, type FieldKind } from '@registry/shared/contracts/fields';
import { HF_REG_DEFINITION } from './db/seed-database';
import { hospital, patient, project, publishCrf } from '../test/factories';
import { createBareTestApp, type TestApp } from '../test/test-app';

/**
 * A fuzz run over the JSON calls: random bodies and query strings built from the contracts' field names with values
 * of any type. No answer may be a 5xx, every answer is the envelope with a Chinese message, none leaks a stack.
 */
let t: TestApp;
let token: string;
const routes: RouteOptions[] = [];
let patientId = '';
beforeAll(async () => {
  t = await createBareTestApp({}, { routeObserver: (r) => routes.push(r) });
  // A project with the heart-failure CRF published through the API and one patient (no records yet), entered by its
  // owner.
  const hf = await project(t, (await hospital(t)).admin);
  token = hf.owner.token;
  await publishCrf(t, token, HF_REG_DEFINITION);
  patientId = (await patient(t, token, { name: '模糊测试', centerId: hf.defaultCenterId })).id;
});
afterAll(async () => {
  await t?.close();
});

const anyValue = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.constantFrom(
    '',
    ' ',
    '__proto__',
    '00000000-0000-0000-0000-000000000000',
    "' or 1=1 --",
    '\u0000',
    '😀'.repeat(40),
  ),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 2 }),
);
const bodyOf = (keys: string[]) => fc.dictionary(fc.constantFrom(...keys), anyValue, { maxKeys: keys.length });
const queryOf = (keys: string[]) =>
  fc.dictionary(fc.constantFrom(...keys), fc.string({ maxLength: 60 }), { maxKeys: keys.length });

const cases: { method: 'GET' | 'POST' | 'PUT'; url: string; body?: string[]; query?: string[] }[] = [
  {
    method: 'POST',
    url: '/auth/login',
    body: ['loginType', 'username', 'password', 'captchaKey', 'captchaCode', 'phone', 'smsCode'],
  },
  { method: 'GET', url: '/auth/sms', query: ['phone'] },
  { method: 'GET', url: '/auth/qr-code/status', query: ['key'] },
  { method: 'POST', url: '/auth/qr-code/scan', body: ['key'] },
  { method: 'POST', url: '/auth/qr-code/confirm', body: ['key'] },
  { method: 'GET', url: '/auth/menu', query: ['groupCode'] },
  { method: 'GET', url: '/auth/change', query: ['tenantCode'] },
  { method: 'PUT', url: '/sys-user', body: ['id', 'name', 'avatar'] },
  { method: 'POST', url: '/web-project/list', body: ['keyword'] },
  { method: 'POST', url: '/web-project/list/owned', body: ['keyword'] },
  { method: 'GET', url: '/web-project/change', query: ['projectId'] },
  { method: 'GET', url: '/oss/file/preview/00000000-0000-4000-8000-000000000000', query: ['access_token'] },
];

describe('fuzz', () => {
  for (const c of cases) {
    it(`should never answer 5xx when ${c.method} ${c.url} gets arbitrary input`, async () => {
      await fc.assert(
        fc.asyncProperty(
          c.body ? bodyOf(c.body) : fc.constant(undefined),
          c.query ? queryOf(c.query) : fc.constant({}),
          async (body, query) => {
            const res = await t.api({
              method: c.method,
              url: c.url,
              token,
              query,
              ...(body !== undefined ? { payload: body as Record<string, unknown> } : {}),
            });
            expect(res.statusCode).toBeLessThan(500);
            if (res.headers['content-type']?.toString().includes('json')) {
              const parsed = res.json<{ status: number; message: string }>();
              expect(parsed.status).toBe(res.statusCode);
              if (res.statusCode >= 400) expect(parsed.message).toMatch(/[\u4e00-\u9fa5]/);
              expect(res.body).not.toMatch(/at .+\.ts:\d+/);
            }
          },
        ),
        { numRuns: Number(process.env.FUZZ_RUNS ?? 25) },
      );
    });
  }
});

/** A date, instant or integer field of a request schema: where it sits (`body`/`querystring`) and its schema. */
type Field = { part: 'body' | 'querystring'; key: string; kind: FieldKind | 'number'; schema: z.ZodType };

type Def = { type: string; innerType?: z.ZodType; in?: z.ZodType; shape?: Record<string, z.ZodType> };
const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The field's own schema without optional/nullable/default wrappers and pipes' output side. */
function core(schema: z.ZodType): z.ZodType {
  let cur = schema;
  for (let i = 0; i < 10; i++) {
    if (fieldKinds.get(cur)) return cur;
    const d = defOf(cur);
    const next = d.innerType ?? (d.type === 'pipe' ? d.in : undefined);
    if (!next) return cur;
    cur = next;
  }
  return cur;
}

/** The top-level date/instant/number fields of a route's body and query schemas. */
function fieldsOf(route: RouteOptions): Field[] {
  const out: Field[] = [];
  const schema = (route.schema ?? {}) as Record<string, z.ZodType | undefined>;
  for (const part of ['body', 'querystring'] as const) {
    const obj = schema[part] && core(schema[part]);
    const shape = obj ? defOf(obj).shape : undefined;
    if (!shape) continue;
    for (const [key, field] of Object.entries(shape)) {
      const inner = core(field);
      const kind = fieldKinds.get(inner)?.fieldKind ?? (defOf(inner).type === 'number' ? 'number' : undefined);
      if (kind) out.push({ part, key, kind, schema: inner });
    }
  }
  return out;
}

const BAD_DATES = ['0000-01-01', '10000-01-01', '2024-02-30', '2024-13-01', '-0001-01-01', '+002024-01-01'];
const BAD_INSTANTS = ['0000-01-01T00:00:00Z', '10000-01-01T00:00:00Z', '2024-02-30T00:00:00Z', '0000-12-31'];
const HUGE_INTS = [2147483648, 1e20, -1, 1.5, -2147483649, Number.MAX_SAFE_INTEGER + 2];
const BAD_INT_TEXTS = ['2147483648', '1e20', '-1', '1.5', 'NaN', 'Infinity', 'abc', '99999999999999999999'];
/** Values at the edge that may be accepted (then the database must take them too): never a 5xx. */
const EDGE_DATES = ['9999-12-31', '0001-01-01', '1900-01-01', '2100-12-31', '2024-02-29'];
const EDGE_INTS = [2147483647, 0, 1_000_000];

const METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE']);
const UUID = '00000000-0000-4000-8000-000000000000';

describe('route table: dates and integers are bounded to what the database stores', () => {
  const requestRoutes = () =>
    routes.filter((r) => METHODS.has(String(r.method)) && r.url.startsWith('/api/') && fieldsOf(r).length > 0);

  it('should find the date and integer fields of the routes', () => {
    const found = new Set(
      requestRoutes().flatMap((r) => fieldsOf(r).map((f) => `${String(r.method)} ${r.url} ${f.key}`)),
    );
    for (const expected of [
      'POST /api/cmdb-template/patient-info/page enrolDateFrom',
      'POST /api/cmdb-template/patient-info birthDate',
      'POST /api/cmdb-template/audit-event/page from',
      'GET /api/cmdb-template/form-record/detail instance',
      'POST /api/cmdb-template/form-record/save instance',
    ])
      expect(found).toContain(expected);
  });

  it('should refuse out-of-range dates and integers in every contract, with a Chinese message', () => {
    const accepted: string[] = [];
    for (const route of requestRoutes()) {
      for (const f of fieldsOf(route)) {
        const at = `${String(route.method)} ${route.url} ${f.key}`;
        const bad: unknown[] =
          f.kind === 'date'
            ? BAD_DATES
            : f.kind === 'instant'
              ? BAD_INSTANTS
              : f.kind === 'int8'
                ? [-1, 1.5, 1e20, 'NaN']
                : f.part === 'querystring'
                  ? BAD_INT_TEXTS
                  : HUGE_INTS;
        for (const value of bad) {
          const r = f.schema.safeParse(value);
          if (r.success) accepted.push(`${at} = ${String(value)}`);
          else expect(r.error.issues[0]?.message, at).toMatch(/[\u4e00-\u9fa5]/);
        }
        // every integer field, bounded or not, fits PostgreSQL's integer (an id may be bigint: safe integers only)
        if (f.kind !== 'date' && f.kind !== 'instant') {
          const big = f.part === 'querystring' ? String(Number.MAX_SAFE_INTEGER + 2) : Number.MAX_SAFE_INTEGER + 2;
          if (f.schema.safeParse(big).success) accepted.push(`${at} = 2^53+1`);
        }
      }
    }
    expect(accepted).toEqual([]);
  });

  /** Requests that pass everything but the field under test, so a value that slips through reaches the database. */
  const baseline = (route: RouteOptions): { body: Record<string, unknown>; query: Record<string, string> } => {
    const key = `${String(route.method)} ${route.url.replace('/api/cmdb-template', '')}`;
    switch (key) {
      case 'GET /form-record/detail':
        return { body: {}, query: { patientId, formKey: 'vital_signs' } };
      case 'POST /form-record/save':
        return { body: { patientId, formKey: 'vital_signs', rowVersion: 0, data: {} }, query: {} };
      case 'POST /patient-info':
        return { body: { name: '边界测试' }, query: {} };
      default:
        return { body: {}, query: {} };
    }
  };

  it('should never answer 5xx when a route gets boundary dates and huge integers', async () => {
    const failures: string[] = [];
    for (const route of requestRoutes()) {
      const url = route.url.replace(/:[A-Za-z]+/g, UUID);
      for (const f of fieldsOf(route)) {
        const values: unknown[] =
          f.kind === 'date'
            ? [...BAD_DATES, ...EDGE_DATES]
            : f.kind === 'instant'
              ? [...BAD_INSTANTS, ...EDGE_DATES, '9999-12-31T23:59:59Z']
              : f.kind === 'int8'
                ? [...HUGE_INTS, 'NaN', ...EDGE_INTS]
                : f.part === 'querystring'
                  ? [...BAD_INT_TEXTS, ...EDGE_INTS.map(String)]
                  : [...HUGE_INTS, ...EDGE_INTS];
        for (const value of values) {
          const base = baseline(route);
          const body = f.part === 'body' ? { ...base.body, [f.key]: value } : base.body;
          const query = f.part === 'querystring' ? { ...base.query, [f.key]: String(value) } : base.query;
          const res = await t.api({
            method: route.method as 'GET',
            url,
            token,
            query,
            ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: body }),
          });
          const at = `${String(route.method)} ${route.url} ${f.key}=${String(value)}`;
          if (res.statusCode >= 500) failures.push(`${at}: ${res.statusCode}`);
          else if (res.statusCode >= 400) {
            const parsed = res.json<{ status: number; message: string }>();
            if (parsed.status !== res.statusCode || !/[\u4e00-\u9fa5]/.test(parsed.message))
              failures.push(`${at}: ${res.body}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('should answer 400 naming the field for year 0000 in the patient list and audit search and instance 2³¹', async () => {
    const cases = [
      { method: 'POST', url: '/patient-info/page', payload: { enrolDateFrom: '0000-01-01' }, label: '入组日期' },
      { method: 'POST', url: '/patient-info/page', payload: { enrolDateTo: '0000-01-01' }, label: '入组日期' },
      { method: 'POST', url: '/audit-event/page', payload: { from: '0000-01-01T00:00:00Z' }, label: '开始时间' },
      { method: 'POST', url: '/audit-event/page', payload: { to: '0000-01-01T00:00:00Z' }, label: '结束时间' },
      {
        method: 'GET',
        url: `/form-record/detail?patientId=${patientId}&formKey=vital_signs&instance=2147483648`,
        label: '实例序号',
      },
      {
        method: 'POST',
        url: '/form-record/save',
        payload: { patientId, formKey: 'vital_signs', rowVersion: 0, instance: 2147483648, data: {} },
        label: '实例序号',
      },
    ] as const;
    for (const c of cases) {
      const res = await t.api({
        method: c.method,
        url: c.url,
        token,
        ...('payload' in c ? { payload: c.payload } : {}),
      });
      expect(res.statusCode, `${c.url} ${res.body}`).toBe(400);
      expect(res.json<{ message: string }>().message).toContain(c.label);
    }
  });
});
