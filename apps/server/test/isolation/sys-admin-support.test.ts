import { randomUUID } from 'node:crypto';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SWITCHED_PROJECT_PERMISSIONS } from '@registry/shared/permissions';
import { PATIENT_DATA_PERMISSIONS } from '../../src/modules/auth/acting-permissions';
import { crfDefinition, hospital, project, publishCrf, systemAdmin } from '../factories';
import { createBareTestApp, type TestApp } from '../test-app';
import { baseRequest, urlOf, type RequestParts } from './requests';
import { routeCases, routeLabel, type RouteCase } from './route-cases';

/**
 * The system administrator switched into a hospital tenant without its support access, walked over the
 * route table: every route guarded by a patient-data code is either a read the switched administrator keeps
 * (`SWITCHED_PROJECT_PERMISSIONS`), whose answer carries no identity value in clear, or is refused with 403. A new
 * route is covered without being listed here.
 */

type Body = { status: number; message: string; data: unknown };

let t: TestApp;
let cases: RouteCase[] = [];
let admin: string;
let patientId: string;
/** The identity values of the patient, as typed: none may appear in any answer to the switched administrator. */
const PLAIN = {
  name: '王小明',
  idNumber: '110105199003071239',
  phone: '13800000001',
  hospitalNo: 'ZY20260001',
  birthDate: '1990-03-07',
};

const kept: ReadonlySet<string> = new Set(SWITCHED_PROJECT_PERMISSIONS);
/** Reads: GETs and the POST list/page/count/export calls (their answers are what a reader sees). */
const isRead = (route: RouteCase) =>
  route.method === 'GET' || (route.method === 'POST' && /\/(page|list|counts?|export|summary)(\/|$)/.test(route.url));

/** Enters the project by its code as the caller's project list shows it. */
async function enter(token: string, projectCode: string) {
  const list = await t.api({ method: 'POST', url: '/web-project/list', token, payload: {} });
  const project = list
    .json<{ data: { projectVOs: { id: string; projectCode: string }[] } }>()
    .data.projectVOs.find((p) => p.projectCode === projectCode);
  const res = await t.api({
    method: 'GET',
    url: '/web-project/change',
    query: { projectId: project?.id ?? '' },
    token,
  });
  expect(res.statusCode).toBe(200);
}

async function send(token: string, route: RouteCase, parts: RequestParts) {
  return t.api({
    method: route.method,
    url: urlOf(route, parts),
    token,
    query: Object.fromEntries(
      Object.entries(parts.query).map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : String(v)]),
    ),
    ...(parts.body !== undefined ? { payload: parts.body } : {}),
  });
}

beforeAll(async () => {
  const routes: RouteOptions[] = [];
  t = await createBareTestApp({}, { routeObserver: (r) => routes.push(r) });
  cases = routeCases(routes).filter((c) => c.permission !== null && PATIENT_DATA_PERMISSIONS.has(c.permission));
  // A hospital's project with a published CRF and one patient, entered by its owner.
  const h = await hospital(t);
  const hf = await project(t, h.admin);
  const owner = hf.owner.token;
  await publishCrf(
    t,
    owner,
    crfDefinition({
      visit: [
        { key: 'weight', label: '体重', type: 'decimal', unit: 'kg' },
        { key: 'note', label: '备注', type: 'text' },
      ],
    }),
  );
  const centers = await t.api({ method: 'GET', url: '/project-center/list', token: owner });
  const centerId = centers.json<{ data: { id: string }[] }>().data[0]?.id;
  const created = await t.api({
    method: 'POST',
    url: '/patient-info',
    token: owner,
    payload: { ...PLAIN, centerId },
  });
  expect(created.statusCode, created.body).toBe(200);
  patientId = created.json<{ data: { id: string } }>().data.id;
  admin = (await systemAdmin(t)).token;
  expect(
    (await t.api({ method: 'GET', url: '/auth/change', query: { tenantCode: h.code }, token: admin })).statusCode,
  ).toBe(200);
  await enter(admin, hf.code);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('a switched system administrator without support access, over every patient-data route', () => {
  it('should find the patient-data routes in the route table', () => {
    expect(cases.length).toBeGreaterThan(20);
  });

  it('should be refused with 403 on every patient-data write, import and export', async () => {
    const resolve = (name: string) => (/^(id|ids|patientId|patientIds)$/.test(name) ? patientId : randomUUID());
    const answered: string[] = [];
    for (const route of cases.filter((c) => !(kept.has(c.permission ?? '') && isRead(c)))) {
      const res = await send(admin, route, baseRequest(route, resolve));
      if (res.statusCode !== 403) answered.push(`${routeLabel(route)} → ${res.statusCode} ${res.body.slice(0, 120)}`);
      else expect(res.json<Body>().message, routeLabel(route)).toBe('无权限执行此操作');
    }
    expect(answered).toEqual([]);
  });

  it('should answer every patient-data read without an identity value in clear', async () => {
    const resolve = (name: string) => (/^(id|ids|patientId|patientIds)$/.test(name) ? patientId : randomUUID());
    const reads = cases.filter((c) => kept.has(c.permission ?? '') && isRead(c));
    expect(reads.length).toBeGreaterThan(5);
    const leaks: string[] = [];
    let answeredWithData = 0;
    for (const route of reads) {
      const res = await send(admin, route, baseRequest(route, resolve));
      expect(res.statusCode, `${routeLabel(route)}: ${res.body.slice(0, 200)}`).not.toBe(403);
      expect(res.statusCode, routeLabel(route)).toBeLessThan(500);
      if (res.statusCode === 200) answeredWithData += 1;
      const text = res.rawPayload.toString('latin1') + res.body;
      for (const [field, value] of Object.entries(PLAIN))
        if (text.includes(value)) leaks.push(`${routeLabel(route)} shows ${field}`);
    }
    expect(answeredWithData).toBeGreaterThan(3);
    expect(leaks).toEqual([]);
  });

  it('should show the patient masked in the list and the detail', async () => {
    const page = await t.api({ method: 'POST', url: '/patient-info/page', token: admin, payload: {} });
    const detail = await t.api({ method: 'GET', url: `/patient-info/${patientId}`, token: admin });
    for (const res of [page, detail]) {
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('王**');
      expect(res.body).toContain('138****0001');
      expect(res.body).not.toContain(PLAIN.name);
    }
  });
});
