import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, departments, users } from '../../db/schema';
import {
  buildProject,
  buildTenant,
  buildUser,
  hospital,
  member,
  project,
  systemAdmin,
  type Account,
} from '../../../test/factories';
import { countRows, createBareTestApp, type TestApp } from '../../../test/test-app';

type Body<T = unknown> = { status: number; message: string; data: T };
type Vo = {
  id: string;
  projectCode: string;
  projectName: string;
  subProject: boolean;
  parentId: string | null;
  owned: boolean;
  roleName: string;
};
type List = { departmentName: string; hospitalName: string; projectVOs: Vo[] };

let t: TestApp;
/** The accounts of the scenario, by their part. */
const who = {} as Record<'admin' | 'owner' | 'entry' | 'nurse' | 'monitor' | 'stat', Account>;
/**
 * Hospital h001 (示例第一人民医院): its administrator `owner` (心血管内科) owns HF-REG, its sub-project HF-REG-HFPEF
 * and T2DM-FU; entry (data entry) and nurse work in HF-REG, monitor in both, stat (内分泌科) in T2DM-FU. And the
 * system tenant's administrator.
 */
beforeAll(async () => {
  t = await createBareTestApp();
  who.admin = await systemAdmin(t);
  const h = await hospital(t, { tenant: { code: 'h001', name: '示例第一人民医院' }, admin: { username: 'owner' } });
  const owner = h.admin;
  who.owner = owner;
  const [cardio, endo] = await t.db
    .insert(departments)
    .values([
      { tenantId: h.tenantId, organisationId: h.organisationId, name: '心血管内科' },
      { tenantId: h.tenantId, organisationId: h.organisationId, name: '内分泌科' },
    ])
    .returning();
  await t.db
    .update(users)
    .set({ departmentId: cardio?.id ?? null })
    .where(eq(users.id, owner.id));
  const hf = await project(t, owner, { code: 'HF-REG', name: '心力衰竭注册登记研究' });
  await project(t, owner, { code: 'HF-REG-HFPEF', name: '射血分数保留型心衰亚组', parentId: hf.id });
  const t2dm = await project(t, owner, { code: 'T2DM-FU', name: '2型糖尿病随访队列' });
  who.entry = await member(t, hf, 'data_entry');
  who.nurse = await member(t, hf, 'followup_nurse', { centerId: null });
  who.monitor = await member(t, hf, 'monitor', { centerId: null });
  await member(t, t2dm, 'monitor', { centerId: null, account: who.monitor });
  who.stat = await member(t, t2dm, 'statistician', { centerId: null, user: { departmentId: endo?.id ?? null } });
});
/** A new session of the account: no current project. */
const signIn = (a: Account) => t.login(a.username, a.password);
afterAll(async () => {
  await t?.close();
});

const list = async (token: string, suffix = '', payload: Record<string, unknown> = {}) =>
  t.api({ method: 'POST', url: `/web-project/list${suffix}`, token, payload });

describe('POST web-project/list', () => {
  it("should list the owner's projects with sub-projects after their parent, hospital and department", async () => {
    const token = await signIn(who.owner);
    const res = await list(token);
    expect(res.statusCode).toBe(200);
    const data = res.json<Body<List>>().data;
    expect(data.hospitalName).toBe('示例第一人民医院');
    expect(data.departmentName).toBe('心血管内科');
    const codes = data.projectVOs.map((p) => p.projectCode);
    expect(codes).toHaveLength(3);
    expect(codes.indexOf('HF-REG-HFPEF')).toBe(codes.indexOf('HF-REG') + 1);
    const sub = data.projectVOs.find((p) => p.projectCode === 'HF-REG-HFPEF');
    const parent = data.projectVOs.find((p) => p.projectCode === 'HF-REG');
    expect(sub).toMatchObject({ subProject: true, parentId: parent?.id, owned: true });
    expect(parent).toMatchObject({
      subProject: false,
      parentId: null,
      roleName: '项目负责人',
      projectName: '心力衰竭注册登记研究',
    });
  });

  it("should list a member's joined projects with the role and the parent's sub-projects", async () => {
    const token = await signIn(who.entry);
    const data = (await list(token)).json<Body<List>>().data;
    expect(data.projectVOs.map((p) => p.projectCode)).toEqual(['HF-REG', 'HF-REG-HFPEF']);
    expect(data.projectVOs.every((p) => !p.owned && p.roleName === '数据录入员')).toBe(true);
    const stat = (await list(await signIn(who.stat))).json<Body<List>>().data;
    expect(stat.projectVOs.map((p) => p.projectCode)).toEqual(['T2DM-FU']);
    expect(stat.departmentName).toBe('内分泌科');
  });

  it('should filter by scope and keyword', async () => {
    const owner = await signIn(who.owner);
    expect((await list(owner, '/owned')).json<Body<List>>().data.projectVOs).toHaveLength(3);
    expect((await list(owner, '/joined')).json<Body<List>>().data.projectVOs).toHaveLength(0);
    const entry = await signIn(who.entry);
    expect((await list(entry, '/joined')).json<Body<List>>().data.projectVOs).toHaveLength(2);
    const diabetes = (await list(owner, '/all', { keyword: '糖尿病' })).json<Body<List>>().data.projectVOs;
    expect(diabetes.map((p) => p.projectCode)).toEqual(['T2DM-FU']);
    expect((await list(owner, '', { keyword: '%' })).json<Body<List>>().data.projectVOs).toHaveLength(0);
  });

  it('should refuse an unknown scope and a too long keyword with 400', async () => {
    const owner = await signIn(who.owner);
    expect((await list(owner, '/mine')).statusCode).toBe(400);
    const long = await list(owner, '', { keyword: 'x'.repeat(101) });
    expect(long.statusCode).toBe(400);
    expect(long.json<Body>().message).toBe('关键字：关键字不能超过100个字符');
  });

  it("should never show another tenant's projects", async () => {
    const { tenant } = await buildTenant(t.db);
    const stranger = await buildUser(t.db, tenant.id, { tenantRoleCode: 'tenant_admin' });
    await buildProject(t.db, tenant.id, stranger.id, { code: 'OTHER-1' });
    const token = await signIn(who.owner);
    const codes = (await list(token)).json<Body<List>>().data.projectVOs.map((p) => p.projectCode);
    expect(codes).not.toContain('OTHER-1');
    const theirs = (await list(await t.login(stranger.username, stranger.password))).json<Body<List>>().data.projectVOs;
    expect(theirs.map((p) => p.projectCode)).toEqual(['OTHER-1']);
  });

  it('should answer 401 without a session', async () => {
    expect((await t.api({ method: 'POST', url: '/web-project/list', payload: {} })).statusCode).toBe(401);
  });
});

describe('GET web-project/count', () => {
  it('should count owned and joined projects', async () => {
    const owner = (
      await t.api({ method: 'GET', url: '/web-project/count', token: await signIn(who.owner) })
    ).json<Body>();
    expect(owner.data).toEqual({ total: 3, owned: 3, joined: 0 });
    const monitor = (
      await t.api({ method: 'GET', url: '/web-project/count', token: await signIn(who.monitor) })
    ).json<Body>();
    expect(monitor.data).toEqual({ total: 3, owned: 0, joined: 3 });
  });
});

describe('GET web-project/change and current', () => {
  it('should answer 404 请先选择项目 before a project is chosen', async () => {
    const token = await signIn(who.nurse);
    const res = await t.api({ method: 'GET', url: '/web-project/current', token });
    expect(res.statusCode).toBe(404);
    expect(res.json<Body>().message).toBe('请先选择项目');
  });

  it('should make a visible project current, audit it and show it in current', async () => {
    const token = await signIn(who.nurse);
    const projects = (await list(token)).json<Body<List>>().data.projectVOs;
    const hf = projects.find((p) => p.projectCode === 'HF-REG');
    const res = await t.api({ method: 'GET', url: '/web-project/change', query: { projectId: hf?.id ?? '' }, token });
    expect(res.statusCode).toBe(200);
    expect(res.json<Body>().data).toEqual({
      id: hf?.id,
      projectName: '心力衰竭注册登记研究',
      projectCode: 'HF-REG',
      subProject: false,
    });
    const current = await t.api({ method: 'GET', url: '/web-project/current', token });
    expect(current.json<Body<{ id: string }>>().data.id).toBe(hf?.id);
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'project.enter'));
    expect(events.some((e) => e.entityId === hf?.id)).toBe(true);
  });

  it("should answer 404 项目不存在 for a project the caller may not enter, another tenant's, or a malformed id", async () => {
    const token = await signIn(who.stat);
    const owner = await signIn(who.owner);
    const hf = (await list(owner)).json<Body<List>>().data.projectVOs.find((p) => p.projectCode === 'HF-REG');
    const { tenant } = await buildTenant(t.db);
    const stranger = await buildUser(t.db, tenant.id);
    const foreign = await buildProject(t.db, tenant.id, stranger.id);
    const scopes = await countRows(t, 'audit_events');
    for (const projectId of [hf?.id ?? '', foreign.id, 'not-a-uuid']) {
      const res = await t.api({ method: 'GET', url: '/web-project/change', query: { projectId }, token });
      expect(res.statusCode).toBe(404);
      expect(res.json<Body>().message).toBe('项目不存在');
    }
    expect(await countRows(t, 'audit_events')).toBe(scopes);
    expect((await t.api({ method: 'GET', url: '/web-project/current', token })).statusCode).toBe(404);
  });

  it('should let a sys administrator who switched tenant enter any project of it with full project rights', async () => {
    const token = await signIn(who.admin);
    expect((await t.api({ method: 'GET', url: '/auth/change', query: { tenantCode: 'h001' }, token })).statusCode).toBe(
      200,
    );
    const t2dm = (await list(token)).json<Body<List>>().data.projectVOs.find((p) => p.projectCode === 'T2DM-FU');
    expect(t2dm).toMatchObject({ owned: false, roleName: '系统管理员' });
    const res = await t.api({ method: 'GET', url: '/web-project/change', query: { projectId: t2dm?.id ?? '' }, token });
    expect(res.statusCode).toBe(200);
    const menu = await t.api({ method: 'GET', url: '/auth/menu', query: { groupCode: 'project' }, token });
    expect(menu.json<Body<{ permissions: string[] }>>().data.permissions).toContain('database.config');
  });

  it('should require the project id', async () => {
    const token = await signIn(who.stat);
    const res = await t.api({ method: 'GET', url: '/web-project/change', token });
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>().message).toBe('项目：不能为空');
  });
});
