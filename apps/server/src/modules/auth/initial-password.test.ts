import { randomUUID } from 'node:crypto';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_SETUP_REQUIRED } from '@registry/shared/access';
import { API_BASE } from '@registry/shared/constants';
import { buildUser, hospital, patient, project, roleIdOf } from '../../../test/factories';
import { countRows, createBareTestApp, type TestApp } from '../../../test/test-app';

/**
 * A session whose user still has the initial password (`newdoc` / `Init@2026`, a member of a project) reaches only the calls of the
 * 设置密码 dialog. The refused routes come from the route table, so a route added later is covered too.
 */

type Body<T = unknown> = { status: number; message: string; data: T };

const ALLOWED = new Set([
  `GET ${API_BASE}/sys-user/user-info`,
  `POST ${API_BASE}/sys-user/change-pwd`,
  `POST ${API_BASE}/auth/logout`,
]);
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

let t: TestApp;
const routes: RouteOptions[] = [];

beforeAll(async () => {
  t = await createBareTestApp({}, { routeObserver: (r) => routes.push(r) });
  const h = await hospital(t);
  const p = await project(t, h.admin);
  await patient(t, p.owner.token, { centerId: p.defaultCenterId });
  const newdoc = await buildUser(t.db, h.tenantId, {
    username: 'newdoc',
    password: 'Init@2026',
    initPwd: true,
    organisationId: h.organisationId,
  });
  const added = await t.api({
    method: 'POST',
    url: '/project-member',
    token: p.owner.token,
    payload: { userId: newdoc.id, roleId: await roleIdOf(t, p, 'data_entry'), centerId: p.defaultCenterId },
  });
  expect(added.statusCode, added.body).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

/** Every signed-in API route as `METHOD url`, with its access rule. */
function signedInRoutes(): { method: string; url: string; initialPassword: boolean }[] {
  const out: { method: string; url: string; initialPassword: boolean }[] = [];
  for (const r of routes) {
    if (!r.url.startsWith(`${API_BASE}/`)) continue;
    const config = (r.config ?? {}) as { public?: boolean; initialPassword?: boolean };
    if (config.public === true) continue;
    for (const method of (Array.isArray(r.method) ? r.method : [r.method]).map(String)) {
      if (METHODS.has(method)) out.push({ method, url: r.url, initialPassword: config.initialPassword === true });
    }
  }
  return out;
}

describe('a session with the initial password', () => {
  it('should reach only user info, password change and log out: every other signed-in route answers 428', async () => {
    const all = signedInRoutes();
    expect(all.length).toBeGreaterThan(100);
    expect(all.filter((r) => r.initialPassword).map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining([...ALLOWED]),
    );
    expect(all.filter((r) => r.initialPassword)).toHaveLength(ALLOWED.size);

    const token = await t.login('newdoc', 'Init@2026');
    const auditsBefore = await countRows(t, 'audit_events');
    const wrong: string[] = [];
    for (const route of all.filter((r) => !ALLOWED.has(`${r.method} ${r.url}`))) {
      const url = route.url.replace(/:[A-Za-z0-9_]+/g, randomUUID());
      const res = await t.api({ method: route.method as 'GET', url, token });
      const body = res.json<Body>();
      if (res.statusCode !== 428 || body.status !== 428 || body.message !== PASSWORD_SETUP_REQUIRED.message)
        wrong.push(`${route.method} ${route.url} → ${res.statusCode} ${body.message}`);
    }
    expect(wrong).toEqual([]);
    expect(await countRows(t, 'audit_events')).toBe(auditsBefore);

    // The session survives the refusals (it is not a sign-out) and the dialog's own calls work.
    const info = await t.api({ method: 'GET', url: '/sys-user/user-info', token });
    expect(info.statusCode).toBe(200);
    expect(info.json<Body<{ username: string; initPwd: boolean }>>().data).toMatchObject({
      username: 'newdoc',
      initPwd: true,
    });
  });

  it('should refuse reading patients (PHI) and creating one', async () => {
    const token = await t.login('newdoc', 'Init@2026');
    const page = await t.api({ method: 'POST', url: '/patient-info/page', token, payload: {} });
    expect(page.statusCode).toBe(428);
    const patientsBefore = await countRows(t, 'patients');
    const create = await t.api({ method: 'POST', url: '/patient-info', token, payload: { name: '张三' } });
    expect(create.statusCode).toBe(428);
    expect(await countRows(t, 'patients')).toBe(patientsBefore);
  });

  it('should let the user log out', async () => {
    const token = await t.login('newdoc', 'Init@2026');
    expect((await t.api({ method: 'POST', url: '/auth/logout', token })).statusCode).toBe(200);
    expect((await t.api({ method: 'GET', url: '/sys-user/user-info', token })).statusCode).toBe(401);
  });

  it('should open every route once the password is set and the user signs in again', async () => {
    const token = await t.login('newdoc', 'Init@2026');
    const set = await t.api({
      method: 'POST',
      url: '/sys-user/change-pwd',
      token,
      payload: { newPassword: 'First-shift-2027' },
    });
    expect(set.statusCode).toBe(200);
    const fresh = await t.login('newdoc', 'First-shift-2027');
    const info = await t.api({ method: 'GET', url: '/sys-user/user-info', token: fresh });
    expect(info.json<Body<{ initPwd: boolean }>>().data.initPwd).toBe(false);
    const list = await t.api({ method: 'POST', url: '/web-project/list', token: fresh, payload: {} });
    expect(list.statusCode).toBe(200);
    const projects = list.json<Body<{ projectVOs: unknown[] }>>().data.projectVOs;
    expect(projects.length).toBeGreaterThan(0);
  });
});
