import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type RouteOptions } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE } from '@registry/shared/constants';
import { auditEvents } from '../src/db/schema';
import { createFakeClock } from '../src/lib/clock';
import { isWrite, registerAccess } from '../src/plugins/access';
import { NOT_AUDITED, type RouteAudit } from '../src/plugins/audit';
import type { Db } from '../src/db/client';
import type { SessionService } from '../src/modules/auth/session.service';
import { serverRoot } from './migrations';
import { hospital, project, type TestProject } from './factories';
import { createBareTestApp, type TestApp } from './test-app';

/**
 * Every write route (POST, PUT, PATCH, DELETE) declares its audit in `config.audit` (plugins/audit.ts RouteAudit):
 * the actions it records, or one of the NOT_AUDITED reasons. What this proves:
 *  - no write route is registered without a declaration (plugins/access.ts refuses it; the first describe);
 *  - the routes that record nothing are exactly the list below, each with its reason — a new one is a visible change;
 *  - for a sample of routes, a call records the declared action under the call's request id, and a sampled
 *    NOT_AUDITED route records nothing.
 * What it does not prove: that a route outside the sample records what it declares (the declaration is read from the
 * service by a person; the test only checks that each declared action is one the code writes somewhere), nor that every branch of an audited route records (a save that changes nothing records
 * nothing, by design).
 */

const EXEMPT: Record<string, keyof typeof NOT_AUDITED> = {
  'POST /audit-event/page': 'read',
  'POST /auth/qr-code/scan': 'qrScan',
  'POST /form-definition/import/excel': 'check',
  'POST /form-definition/import/redcap': 'check',
  'POST /form-record/check': 'check',
  'POST /form-record/migration/preview': 'read',
  'POST /form-record/query/page': 'read',
  'POST /followup/assignment/page': 'read',
  'POST /followup/task/counts': 'read',
  'POST /notification/page': 'read',
  'POST /patient-import/dry-run': 'check',
  'POST /project-member/page': 'read',
  'POST /retrieval/count': 'read',
  'POST /sys-area/page': 'read',
  'POST /sys-field-dict-option/page': 'read',
  'POST /sys-field-dict/import/dry-run': 'check',
  'POST /sys-user/page': 'read',
  'POST /web-project/join-request/page': 'read',
  'POST /web-project/list': 'read',
  'POST /web-project/list/:scope': 'read',
  'POST /web-project/search4join': 'read',
};

type WriteRoute = { key: string; audit: RouteAudit | undefined };

describe('write routes: the audit declaration is required at registration', () => {
  const build = () => {
    const app = Fastify();
    registerAccess(app, {
      sessions: {} as SessionService,
      db: {} as Db,
      clock: createFakeClock(),
    });
    return app;
  };
  const handler = async () => null;

  it('should refuse a write route without config.audit', () => {
    const app = build();
    expect(() => app.post('/x', { config: { permission: null } }, handler)).toThrow(
      /route POST \/x does not declare its audit/,
    );
    expect(() => app.delete('/y', { config: { public: true } }, handler)).toThrow(/DELETE \/y does not declare/);
  });

  it('should refuse an exemption whose reason is not one of NOT_AUDITED, and an empty action list', () => {
    const app = build();
    const made = { none: 'because' };
    expect(() => app.put('/x', { config: { permission: null, audit: made } }, handler)).toThrow(/does not declare/);
    const empty = [] as unknown as RouteAudit;
    expect(() => app.patch('/x', { config: { permission: null, audit: empty } }, handler)).toThrow(/does not declare/);
  });

  it('should accept declared actions, a NOT_AUDITED reason, and a GET without a declaration', () => {
    const app = build();
    expect(() => app.post('/a', { config: { permission: null, audit: ['thing.create'] } }, handler)).not.toThrow();
    expect(() => app.post('/b', { config: { permission: null, audit: NOT_AUDITED.read } }, handler)).not.toThrow();
    expect(() => app.get('/c', { config: { permission: null } }, handler)).not.toThrow();
  });
});

describe('write routes: declarations in the route table and a sample of calls', () => {
  let t: TestApp;
  const routes: RouteOptions[] = [];
  let writes: WriteRoute[];
  const audits = new Map<string, RouteAudit | undefined>();
  /** A project of a hospital's administrator (its owner). */
  let hf: TestProject;

  beforeAll(async () => {
    t = await createBareTestApp({}, { routeObserver: (r) => routes.push(r) });
    hf = await project(t, (await hospital(t)).admin);
    writes = routes
      .filter((r) => r.url.startsWith(`${API_BASE}/`))
      .flatMap((r) =>
        (Array.isArray(r.method) ? r.method : [r.method])
          .filter((m) => isWrite(m))
          .map((m) => ({ key: `${m} ${r.url.slice(API_BASE.length)}`, audit: r.config?.audit })),
      );
    for (const w of writes) audits.set(w.key, w.audit);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('should find every write route declared, and exactly the listed ones exempt with their reasons', () => {
    expect(writes.length).toBeGreaterThan(80);
    expect(writes.filter((w) => w.audit === undefined).map((w) => w.key)).toEqual([]);
    const exempt = Object.fromEntries(
      writes
        .filter((w) => w.audit !== undefined && 'none' in w.audit)
        .map((w) => {
          const reason = Object.entries(NOT_AUDITED).find(([, n]) => 'none' in w.audit! && n.none === w.audit.none);
          return [w.key, reason?.[0]];
        })
        .sort(([a], [b]) => String(a).localeCompare(String(b))),
    );
    expect(exempt).toEqual(EXEMPT);
  });

  it('should declare only actions the services write: each is a literal in src/, or built from a listed template', () => {
    // Actions put together at run time: `form_record.${action}` (status change), `data_query.${move}`.
    const built = new Set(['form_record.lock', 'form_record.unlock', 'data_query.answer', 'data_query.close']);
    const source = readdirSync(path.join(serverRoot, 'src'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.routes.ts')) // the declarations themselves
      .map((f) => readFileSync(path.join(serverRoot, 'src', f), 'utf8'))
      .join('\n');
    const declared = new Set(writes.flatMap((w) => (w.audit && !('none' in w.audit) ? [...w.audit] : [])));
    const unknown = [...declared].filter((a) => !built.has(a) && !source.includes(`'${a}'`));
    expect(unknown).toEqual([]);
  });

  /** Calls a route and answers the actions recorded under the call's request id, with what the route declares. */
  async function call(method: 'POST' | 'PUT' | 'DELETE', url: string, route: string, token?: string, payload?: object) {
    const res = await t.api({ method, url, ...(token ? { token } : {}), ...(payload ? { payload } : {}) });
    expect(res.statusCode, res.body).toBe(200);
    const requestId = String(res.headers['x-request-id']);
    const rows = await t.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.requestId, requestId));
    const declared = audits.get(`${method} ${route}`);
    expect(declared, `${method} ${route} is not a write route of the table`).toBeDefined();
    return { res, recorded: rows.map((r) => r.action), declared: declared! };
  }

  const expectDeclaredRecorded = ({ recorded, declared }: { recorded: string[]; declared: RouteAudit }) => {
    expect('none' in declared, 'the route declares that it records nothing').toBe(false);
    expect(
      recorded.some((a) => (declared as readonly string[]).includes(a)),
      `recorded ${recorded.join(', ')}`,
    ).toBe(true);
  };

  it('should record the declared action for a sample of write routes, one or more per module', async () => {
    const login = await call('POST', '/auth/login', '/auth/login', undefined, {
      loginType: 'password',
      username: hf.owner.username,
      password: hf.owner.password,
    });
    expectDeclaredRecorded(login);
    const owner = login.res.json<{ data: { token: string } }>().data.token;
    const entered = await t.api({ method: 'GET', url: `/web-project/change?projectId=${hf.id}`, token: owner });
    expect(entered.statusCode, entered.body).toBe(200);

    expectDeclaredRecorded(await call('PUT', '/sys-user', '/sys-user', owner, { name: '项目负责人' }));
    expectDeclaredRecorded(
      await call('POST', '/page-config-custom', '/page-config-custom', owner, {
        pageKey: 'patient-list',
        config: { columns: [{ key: 'patientNo', visible: true }] },
      }),
    );
    expectDeclaredRecorded(
      await call('DELETE', '/page-config-custom?pageKey=patient-list', '/page-config-custom', owner),
    );
    expectDeclaredRecorded(
      await call('POST', '/project-role', '/project-role', owner, {
        code: 'audit_probe',
        name: '审计探针',
        permissions: ['patient.list'],
      }),
    );
    const centers = await t.api({ method: 'GET', url: '/project-center/list', token: owner });
    const centerId = centers.json<{ data: { id: string }[] }>().data[0]?.id;
    expectDeclaredRecorded(
      await call('POST', '/patient-info', '/patient-info', owner, {
        name: '审计探针',
        ...(centerId ? { centerId } : {}),
      }),
    );
    const org = await call('POST', '/web-project/org', '/web-project/org', owner, { name: '审计探针医院' });
    expectDeclaredRecorded(org);
    const organisationId = org.res.json<{ data: { id: string } }>().data.id;
    expectDeclaredRecorded(
      await call('POST', '/project-center', '/project-center', owner, {
        code: 'AUD1',
        name: '审计探针中心',
        organisationId,
      }),
    );
    expectDeclaredRecorded(await call('POST', '/auth/logout', '/auth/logout', owner));
  });

  it('should record nothing for a sample of the NOT_AUDITED routes', async () => {
    const owner = await t.login(hf.owner.username, hf.owner.password);
    for (const [url, route, payload] of [
      ['/notification/page', '/notification/page', { current: 1, size: 10 }],
      ['/web-project/list', '/web-project/list', {}],
      ['/sys-area/page', '/sys-area/page', { current: 1, size: 10 }],
    ] as const) {
      const { recorded, declared } = await call('POST', url, route, owner, payload);
      expect('none' in declared).toBe(true);
      expect(recorded, `${route}`).toEqual([]);
    }
  });
});
