import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_ROLES } from '@registry/shared/roles';
import { buildTenant, buildUser, hospital, project, systemAdmin } from '../../../test/factories';
import { countRows, createBareTestApp, type TestApp } from '../../../test/test-app';

type Body<T = unknown> = { status: number; message: string; data: T; issues?: { path: string }[] };
type Tenant = { id: string; code: string; name: string; type: string; userCount: number; projectCount: number };

let t: TestApp;
let admin: string;
let owner: string;
/** Three tenants: the system's, hospital h001 (4 accounts, 2 projects and a sub-project) and a personal one. */
beforeAll(async () => {
  t = await createBareTestApp();
  admin = (await systemAdmin(t)).token;
  const h = await hospital(t, { tenant: { code: 'h001', name: '示例第一人民医院' } });
  owner = h.admin.token;
  const hf = await project(t, h.admin);
  await project(t, h.admin);
  await project(t, h.admin, { parentId: hf.id });
  for (const name of ['张录入', '李护士', '陈统计']) await buildUser(t.db, h.tenantId, { name });
  const p = await buildTenant(t.db, { code: 'p001', name: '个人版-李医生', type: 'PERSONAL' });
  await buildUser(t.db, p.tenant.id, { userType: 'PERSONAL', tenantRoleCode: BUILT_IN_ROLES.personal.code });
});
afterAll(async () => {
  await t?.close();
});

describe('sys-tenant', () => {
  it('should page every tenant with its counts of users and projects for a system administrator', async () => {
    const res = await t.api({ method: 'GET', url: '/sys-tenant/page?current=1&size=10', token: admin });
    expect(res.statusCode).toBe(200);
    const page = res.json<Body<{ records: Tenant[]; total: number }>>().data;
    expect(page.total).toBe(3);
    expect(page.records.find((r) => r.code === 'h001')).toMatchObject({
      type: 'HOSPITAL',
      userCount: 4,
      projectCount: 3,
    });
    const filtered = await t.api({ method: 'GET', url: '/sys-tenant/page?keyword=个人', token: admin });
    expect(filtered.json<Body<{ records: Tenant[] }>>().data.records.map((r) => r.code)).toEqual(['p001']);
  });

  it('should refuse 403 to a hospital administrator', async () => {
    expect((await t.api({ method: 'GET', url: '/sys-tenant/page', token: owner })).statusCode).toBe(403);
    const res = await t.api({
      method: 'POST',
      url: '/sys-tenant',
      token: owner,
      payload: { code: 'h009', name: '越权医院', admin: { username: 'x_admin', name: '某' } },
    });
    expect(res.statusCode).toBe(403);
  });

  it('should create a hospital tenant whose first administrator signs in with the one-time password', async () => {
    const res = await t.api({
      method: 'POST',
      url: '/sys-tenant',
      token: admin,
      payload: { code: 'h002', name: '示例第三人民医院', admin: { username: 'h002_admin', name: '周管理员' } },
    });
    expect(res.statusCode).toBe(200);
    const data = res.json<Body<{ tenant: Tenant; admin: { username: string }; initialPassword: string }>>().data;
    expect(data.tenant).toMatchObject({ code: 'h002', type: 'HOSPITAL', userCount: 1, projectCount: 0 });
    const login = await t.api({
      method: 'POST',
      url: '/auth/login',
      payload: { loginType: 'password', username: 'h002_admin', password: data.initialPassword },
    });
    expect(login.json<Body<{ initPwd: boolean; token: string }>>().data.initPwd).toBe(true);
    const token = login.json<Body<{ token: string }>>().data.token;
    const info = await t.api({ method: 'GET', url: '/sys-user/user-info', token });
    expect(info.json<Body<{ tenantCode: string; tenantName: string }>>().data).toMatchObject({
      tenantCode: 'h002',
      tenantName: '示例第三人民医院',
    });
    // The initial password must be set before anything else (428), then the administrator works in the tenant.
    const early = await t.api({
      method: 'POST',
      url: '/web-project',
      token,
      payload: { code: 'NEW-1', name: '新项目' },
    });
    expect(early.statusCode).toBe(428);
    const set = await t.api({
      method: 'POST',
      url: '/sys-user/change-pwd',
      token,
      payload: { newPassword: 'H002-admin-first' },
    });
    expect(set.statusCode).toBe(200);
    const create = await t.api({
      method: 'POST',
      url: '/web-project',
      token: await t.login('h002_admin', 'H002-admin-first'),
      payload: { code: 'NEW-1', name: '新项目' },
    });
    expect(create.statusCode).toBe(200);
    expect((await t.api({ method: 'GET', url: '/auth/change?tenantCode=h002', token: admin })).statusCode).toBe(200);
  });

  it('should refuse a taken code with 409 and bad input with field paths, writing nothing', async () => {
    const before = await countRows(t, 'tenants');
    const dup = await t.api({
      method: 'POST',
      url: '/sys-tenant',
      token: admin,
      payload: { code: 'h001', name: '重复', admin: { username: 'dup_admin', name: '某' } },
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json<Body>().message).toBe('租户编码已存在');
    const bad = await t.api({
      method: 'POST',
      url: '/sys-tenant',
      token: admin,
      payload: { code: '1', name: '', admin: { username: '', name: '' } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<Body>().issues?.map((i) => i.path)).toEqual(
      expect.arrayContaining(['code', 'name', 'admin.username', 'admin.name']),
    );
    expect(await countRows(t, 'tenants')).toBe(before);
  });
});
