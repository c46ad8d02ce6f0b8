import { randomUUID } from 'node:crypto';
import { and, eq, isNull, or } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, projectMembers, roles, users } from '../../db/schema';
import { buildProject, buildTenant, buildUser, center, hospital, member, project } from '../../../test/factories';
import { countRows, createBareTestApp, type TestApp } from '../../../test/test-app';

type Body<T = unknown> = { status: number; message: string; data: T; issues?: { path: string; message: string }[] };
type Role = { id: string; code: string; name: string; builtIn: boolean; memberCount: number; permissions: string[] };
type Member = { id: string; username: string; roleName: string; centerName: string | null; owner: boolean };

let t: TestApp;
let owner: string;
let entry: string;
let hfId: string;
let h001: string;
let c01: string;
let c02: string;
let foreignUserId: string;
let foreignRoleId: string;
let t2dmCenterId: string;

const one = async <T>(rows: Promise<T[]>): Promise<T> => {
  const [row] = await rows;
  if (!row) throw new Error('row missing');
  return row;
};
const enter = (token: string, projectId: string) =>
  t.api({ method: 'GET', url: `/web-project/change?projectId=${projectId}`, token });
/** A built-in role or a custom role of hf, by code. */
const roleId = async (code: string) =>
  (
    await one(
      t.db
        .select()
        .from(roles)
        .where(and(eq(roles.code, code), or(isNull(roles.projectId), eq(roles.projectId, hfId)))),
    )
  ).id;
const pageMembers = async (token: string, payload: Record<string, unknown> = {}) =>
  (await t.api({ method: 'POST', url: '/project-member/page', token, payload })).json<
    Body<{ records: Member[]; total: number }>
  >();
const sameAs = (a: { json: () => unknown }, b: { json: () => unknown }) =>
  expect({ ...(a.json() as Body), requestId: '' }).toEqual({ ...(b.json() as Body), requestId: '' });

beforeAll(async () => {
  t = await createBareTestApp();
  // hf of the hospital's administrator `owner`: C01 at the hospital, C02 at a second one, the custom role 质控员,
  // data-entry members at C01 (entry), at C02 (entry2) and over all centers, a nurse and a monitor over all centers;
  // `stat` is a doctor of the hospital outside hf; a second project t2dm.
  const h = await hospital(t, { tenant: { name: '示例第一人民医院' }, admin: { username: 'owner', name: '王主任' } });
  h001 = h.tenantId;
  const hf = await project(t, h.admin);
  hfId = hf.id;
  c01 = hf.defaultCenterId;
  c02 = (await center(t, hf, { code: 'C02', name: '示例第二人民医院' })).id;
  const qc = await t.api({
    method: 'POST',
    url: '/project-role',
    token: hf.owner.token,
    payload: { code: 'qc', name: '质控员', permissions: ['home.view', 'patient.list', 'audit.view'] },
  });
  expect(qc.statusCode, qc.body).toBe(200);
  entry = (await member(t, hf, 'data_entry', { user: { username: 'entry' } })).token;
  await member(t, hf, 'data_entry', { centerId: c02, user: { username: 'entry2' } });
  await member(t, hf, 'data_entry', { centerId: null });
  await member(t, hf, 'followup_nurse', { centerId: null, user: { username: 'nurse' } });
  await member(t, hf, 'monitor', { centerId: null, user: { username: 'monitor' } });
  await buildUser(t.db, h001, { username: 'stat' });
  t2dmCenterId = (await project(t, h.admin)).defaultCenterId;
  owner = await t.login('owner', h.admin.password);
  const other = await buildTenant(t.db);
  const otherUser = await buildUser(t.db, other.tenant.id);
  foreignUserId = otherUser.id;
  const otherProject = await buildProject(t.db, other.tenant.id, otherUser.id);
  foreignRoleId = (
    await one(
      t.db
        .insert(roles)
        .values({
          tenantId: other.tenant.id,
          projectId: otherProject.id,
          code: 'qc',
          name: '外部质控',
          scope: 'project',
        })
        .returning(),
    )
  ).id;
  await enter(owner, hfId);
  await enter(entry, hfId);
});
afterAll(async () => {
  await t?.close();
});

describe('project roles', () => {
  it('should list the built-in project roles read-only and the custom role of the project', async () => {
    const res = await t.api({ method: 'GET', url: '/project-role/list', token: owner });
    expect(res.statusCode).toBe(200);
    const list = res.json<Body<Role[]>>().data;
    expect(list.filter((r) => r.builtIn).map((r) => r.code)).toEqual(
      expect.arrayContaining([
        'project_owner',
        'center_lead',
        'data_entry',
        'followup_nurse',
        'monitor',
        'statistician',
        'viewer',
      ]),
    );
    expect(list.filter((r) => r.builtIn)).toHaveLength(7);
    expect(list.filter((r) => !r.builtIn).map((r) => r.name)).toEqual(['质控员']);
    expect(list.find((r) => r.code === 'data_entry')?.memberCount).toBe(3);
  });

  it('should create a custom role with an audit event and refuse a taken code, bad codes and non-managers', async () => {
    const create = (token: string, payload: Record<string, unknown>) =>
      t.api({ method: 'POST', url: '/project-role', token, payload });
    const res = await create(owner, {
      code: 'crc_lead',
      name: 'CRC组长',
      permissions: ['patient.list', 'patient.add'],
    });
    expect(res.statusCode).toBe(200);
    const role = res.json<Body<Role>>().data;
    expect(role).toMatchObject({ builtIn: false, memberCount: 0, permissions: ['patient.list', 'patient.add'] });
    expect(
      (await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, role.id))).map((e) => e.action),
    ).toEqual(['role.create']);

    const taken = await create(owner, { code: 'data_entry', name: '同名', permissions: ['patient.list'] });
    expect(taken.statusCode).toBe(409);
    expect(taken.json<Body>().message).toBe('角色编码已存在');

    const before = await countRows(t, 'roles');
    const bad = await create(owner, { code: 'x_role', name: '越权', permissions: ['sys.tenant'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<Body>().issues?.[0]?.path).toBe('permissions.0');
    expect(await countRows(t, 'roles')).toBe(before);

    expect((await create(entry, { code: 'y_role', name: '无权', permissions: ['patient.list'] })).statusCode).toBe(403);
  });

  it("should refuse to change a built-in role and answer another project's role like a missing one", async () => {
    const builtIn = await t.api({
      method: 'PUT',
      url: '/project-role',
      token: owner,
      payload: { id: await roleId('viewer'), name: '改名' },
    });
    expect(builtIn.statusCode).toBe(409);
    expect(builtIn.json<Body>().message).toBe('内置角色不能修改');
    const foreign = await t.api({
      method: 'PUT',
      url: '/project-role',
      token: owner,
      payload: { id: foreignRoleId, name: 'x' },
    });
    const random = await t.api({
      method: 'PUT',
      url: '/project-role',
      token: owner,
      payload: { id: randomUUID(), name: 'x' },
    });
    expect(foreign.statusCode).toBe(404);
    sameAs(foreign, random);
  });

  it('should refuse to delete a custom role in use with 409 and delete it once unused', async () => {
    const qc = await roleId('qc');
    const [nurse] = await t.db.select().from(users).where(eq(users.username, 'nurse'));
    const membership = await one(
      t.db
        .select()
        .from(projectMembers)
        .where(and(eq(projectMembers.projectId, hfId), eq(projectMembers.userId, nurse?.id ?? ''))),
    );
    await t.api({ method: 'PUT', url: '/project-member', token: owner, payload: { id: membership.id, roleId: qc } });
    const inUse = await t.api({ method: 'DELETE', url: `/project-role?id=${qc}`, token: owner });
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json<Body>().message).toBe('角色正在使用中，无法删除');
    await t.api({
      method: 'PUT',
      url: '/project-member',
      token: owner,
      payload: { id: membership.id, roleId: await roleId('followup_nurse') },
    });
    const deleted = await t.api({ method: 'DELETE', url: `/project-role?id=${qc}`, token: owner });
    expect(deleted.statusCode).toBe(200);
    expect(await t.db.select().from(roles).where(eq(roles.id, qc))).toHaveLength(0);
  });
});

describe('project members', () => {
  it('should list members with role and center (null = all centers)', async () => {
    const body = await pageMembers(owner);
    expect(body.status).toBe(200);
    const byName = Object.fromEntries(body.data.records.map((m) => [m.username, m]));
    expect(byName.owner).toMatchObject({ owner: true, centerName: null, roleName: '项目负责人' });
    expect(byName.entry).toMatchObject({ centerName: '示例第一人民医院', roleName: '数据录入员' });
    expect(byName.entry2).toMatchObject({ centerName: '示例第二人民医院' });
  });

  it("should show a center-scoped manager only their center's members", async () => {
    const mgrRole = await one(
      t.db
        .insert(roles)
        .values({
          tenantId: h001,
          projectId: hfId,
          code: 'site_admin',
          name: '中心管理员',
          scope: 'project',
          permissions: ['permission.manage', 'home.view'],
        })
        .returning(),
    );
    const mgr = await buildUser(t.db, h001);
    await t.db
      .insert(projectMembers)
      .values({ tenantId: h001, projectId: hfId, userId: mgr.id, roleId: mgrRole.id, centerId: c02 });
    const token = await t.login(mgr.username, mgr.password);
    await enter(token, hfId);
    const names = (await pageMembers(token)).data.records.map((m) => m.username).sort();
    expect(names).toEqual([mgr.username, 'entry2'].sort());
    const c01Member = (await pageMembers(owner, { keyword: 'entry' })).data.records.find((m) => m.username === 'entry');
    const res = await t.api({ method: 'DELETE', url: `/project-member?id=${c01Member?.id}`, token });
    expect(res.statusCode).toBe(404);
    const allCenters = await t.api({
      method: 'POST',
      url: '/project-member',
      token,
      payload: { userId: mgr.id, roleId: await roleId('viewer'), centerId: null },
    });
    expect(allCenters.statusCode).toBe(403);
  });

  it("should add an existing tenant user once and answer another tenant's user like a missing one", async () => {
    const [stat] = await t.db.select().from(users).where(eq(users.username, 'stat'));
    const viewerId = await roleId('viewer');
    const add = (userId: string) =>
      t.api({
        method: 'POST',
        url: '/project-member',
        token: owner,
        payload: { userId, roleId: viewerId, centerId: c01 },
      });
    const res = await add(stat?.id ?? '');
    expect(res.statusCode).toBe(200);
    expect(res.json<Body<Member>>().data).toMatchObject({
      username: 'stat',
      roleName: '只读成员',
      centerName: '示例第一人民医院',
    });
    const again = await add(stat?.id ?? '');
    expect(again.statusCode).toBe(409);
    expect(again.json<Body>().message).toBe('该用户已是项目成员');
    const foreign = await add(foreignUserId);
    expect(foreign.statusCode).toBe(404);
    sameAs(foreign, await add(randomUUID()));
    const foreignRole = await t.api({
      method: 'POST',
      url: '/project-member',
      token: owner,
      payload: { userId: stat?.id, roleId: foreignRoleId, centerId: null },
    });
    expect(foreignRole.statusCode).toBe(404);
    expect((await t.api({ method: 'POST', url: '/project-member/page', token: entry, payload: {} })).statusCode).toBe(
      403,
    );
  });

  it('should create an account whose initial password is shown once and signs in with init_pwd', async () => {
    const before = await countRows(t, 'users');
    const bad = await t.api({
      method: 'POST',
      url: '/project-member/account',
      token: owner,
      payload: { username: '1x', name: '', roleId: await roleId('data_entry'), centerId: c02 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<Body>().issues?.map((i) => i.path)).toEqual(expect.arrayContaining(['username', 'name']));
    expect(await countRows(t, 'users')).toBe(before);

    const res = await t.api({
      method: 'POST',
      url: '/project-member/account',
      token: owner,
      payload: {
        username: 'crc_wu',
        name: '吴协调员',
        departmentName: '心内科二病区',
        roleId: await roleId('data_entry'),
        centerId: c02,
      },
    });
    expect(res.statusCode).toBe(200);
    const data = res.json<Body<{ member: Member & { departmentName: string }; initialPassword: string }>>().data;
    expect(data.member).toMatchObject({
      username: 'crc_wu',
      centerName: '示例第二人民医院',
      departmentName: '心内科二病区',
    });
    expect(data.initialPassword).toMatch(/^(?=.*[A-Za-z])(?=.*\d).{8,}$/);
    const login = await t.api({
      method: 'POST',
      url: '/auth/login',
      payload: { loginType: 'password', username: 'crc_wu', password: data.initialPassword },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json<Body<{ initPwd: boolean }>>().data.initPwd).toBe(true);
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'user.create'));
    expect(JSON.stringify(events)).not.toContain(data.initialPassword);

    const dup = await t.api({
      method: 'POST',
      url: '/project-member/account',
      token: owner,
      payload: { username: 'CRC_WU', name: '重名', roleId: await roleId('data_entry'), centerId: null },
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json<Body>().message).toBe('用户名已存在');
  });

  it('should refuse to demote or remove the last owner and remove another member at once', async () => {
    const ownerRow = (await pageMembers(owner)).data.records.find((m) => m.owner);
    const demote = await t.api({
      method: 'PUT',
      url: '/project-member',
      token: owner,
      payload: { id: ownerRow?.id, roleId: await roleId('viewer') },
    });
    expect(demote.statusCode).toBe(409);
    expect(demote.json<Body>().message).toBe('不能移除项目的最后一位负责人');
    const remove = await t.api({ method: 'DELETE', url: `/project-member?id=${ownerRow?.id}`, token: owner });
    expect(remove.statusCode).toBe(409);

    const entryRow = (await pageMembers(owner)).data.records.find((m) => m.username === 'entry');
    const moved = await t.api({
      method: 'PUT',
      url: '/project-member',
      token: owner,
      payload: { id: entryRow?.id, centerId: c02 },
    });
    expect(moved.json<Body<Member>>().data.centerName).toBe('示例第二人民医院');
    const removed = await t.api({ method: 'DELETE', url: `/project-member?id=${entryRow?.id}`, token: owner });
    expect(removed.statusCode).toBe(200);
    const after = await t.api({ method: 'GET', url: '/project-center/list', token: entry });
    expect(after.statusCode).toBe(404);
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, entryRow?.id ?? ''), eq(auditEvents.action, 'member.remove')));
    expect(event?.oldValue).toMatchObject({ centerId: c02 });
  });

  it("should let a center lead manage only their center's members and never grant a role above their own", async () => {
    const leadRole = await roleId('center_lead');
    const leadUser = await buildUser(t.db, h001);
    await t.db
      .insert(projectMembers)
      .values({ tenantId: h001, projectId: hfId, userId: leadUser.id, roleId: leadRole, centerId: c01 });
    const token = await t.login(leadUser.username, leadUser.password);
    await enter(token, hfId);
    const names = (await pageMembers(token)).data.records.map((m) => m.username);
    expect(names).toContain(leadUser.username);
    expect(names).not.toContain('entry2');
    const [monitor] = await t.db.select().from(users).where(eq(users.username, 'monitor'));
    const grantOwner = await t.api({
      method: 'POST',
      url: '/project-member/account',
      token,
      payload: { username: 'sneaky_owner', name: '越权', roleId: await roleId('project_owner'), centerId: c01 },
    });
    expect(grantOwner.statusCode).toBe(403);
    expect(grantOwner.json<Body>().message).toBe('不能授予超出自身权限的角色');
    const otherCenter = await t.api({
      method: 'POST',
      url: '/project-member',
      token,
      payload: { userId: monitor?.id, roleId: await roleId('viewer'), centerId: c02 },
    });
    expect(otherCenter.statusCode).toBe(404);
    const viewer = await roleId('viewer');
    const add = (centerId: string) =>
      t.api({
        method: 'POST',
        url: '/project-member',
        token: owner,
        payload: { userId: monitor?.id, roleId: viewer, centerId },
      });
    const foreignCenter = await add(t2dmCenterId);
    expect(foreignCenter.statusCode).toBe(404);
    sameAs(foreignCenter, await add(randomUUID()));
  });
});
