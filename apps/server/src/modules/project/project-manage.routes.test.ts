import { randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_ROLES } from '@registry/shared/roles';
import { auditEvents, centers, departments, joinRequests, projectMembers, projects, roles } from '../../db/schema';
import {
  buildProject,
  buildTenant,
  buildUser,
  center,
  hospital,
  member,
  project,
  systemAdmin,
  type Account,
} from '../../../test/factories';
import { countRows, createBareTestApp, type TestApp } from '../../../test/test-app';

type Body<T = unknown> = { status: number; message: string; data: T; issues?: { path: string; message: string }[] };

let t: TestApp;
let owner: string;
let entry: string;
let stat: string;
let nurse: string;
let hfId: string;
let t2dmId: string;
let foreignProjectId: string;
let admin: Account;

const builtInRole = async (code: string) => {
  const [row] = await t.db
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.code, code), isNull(roles.projectId)));
  if (!row) throw new Error(`role ${code} missing`);
  return row.id;
};

beforeAll(async () => {
  t = await createBareTestApp();
  // Hospital h001 (示例第一人民医院) whose administrator `owner` (王主任) owns HF-REG (C01, C02 at 示例第二人民医院,
  // the custom role 质控员; entry at C01, entry2 at C02, a nurse) and T2DM-FU (stat, 内分泌科, who asked to join
  // HF-REG); a personal tenant's user and the system administrator.
  admin = await systemAdmin(t, { username: 'admin' });
  const h = await hospital(t, {
    tenant: { code: 'h001', name: '示例第一人民医院' },
    admin: { username: 'owner', name: '王主任' },
  });
  const [endo] = await t.db
    .insert(departments)
    .values({ tenantId: h.tenantId, organisationId: h.organisationId, name: '内分泌科' })
    .returning();
  const hf = await project(t, h.admin, { code: 'HF-REG', name: '心力衰竭注册登记研究' });
  hfId = hf.id;
  const c02 = await center(t, hf, { code: 'C02', name: '示例第二人民医院' });
  const qc = await t.api({
    method: 'POST',
    url: '/project-role',
    token: hf.owner.token,
    payload: { code: 'qc', name: '质控员', permissions: ['home.view', 'patient.list', 'audit.view'] },
  });
  expect(qc.statusCode, qc.body).toBe(200);
  const t2dm = await project(t, h.admin, {
    code: 'T2DM-FU',
    name: '2型糖尿病随访队列',
    description: '2型糖尿病患者前瞻性随访队列',
  });
  t2dmId = t2dm.id;
  const accounts = {
    entry: await member(t, hf, 'data_entry', { user: { username: 'entry' } }),
    entry2: await member(t, hf, 'data_entry', { centerId: c02.id, user: { username: 'entry2' } }),
    nurse: await member(t, hf, 'followup_nurse', { centerId: null }),
    stat: await member(t, t2dm, 'statistician', {
      centerId: null,
      user: { username: 'stat', departmentId: endo?.id ?? null },
    }),
  };
  const asked = await t.api({
    method: 'POST',
    url: '/web-project/join-request',
    token: accounts.stat.token,
    payload: { projectId: hfId },
  });
  expect(asked.statusCode, asked.body).toBe(200);
  const p001 = await buildTenant(t.db, { type: 'PERSONAL' });
  await buildUser(t.db, p001.tenant.id, {
    username: 'personal',
    userType: 'PERSONAL',
    tenantRoleCode: BUILT_IN_ROLES.personal.code,
  });
  // New sessions: no project chosen yet.
  const signIn = (a: Account) => t.login(a.username, a.password);
  owner = await signIn(h.admin);
  entry = await signIn(accounts.entry);
  stat = await signIn(accounts.stat);
  nurse = await signIn(accounts.nurse);
  const other = await buildTenant(t.db);
  const otherOwner = await buildUser(t.db, other.tenant.id);
  foreignProjectId = (await buildProject(t.db, other.tenant.id, otherOwner.id)).id;
});
afterAll(async () => {
  await t?.close();
});

const create = (token: string, payload: Record<string, unknown>) =>
  t.api({ method: 'POST', url: '/web-project', token, payload });

describe('POST web-project', () => {
  it('should create a project owned by the caller with a default center and an audit event when the input is valid', async () => {
    const res = await create(owner, { code: 'CKD-01', name: '慢性肾病队列', diseaseArea: '肾病', status: 'active' });
    expect(res.statusCode).toBe(200);
    const vo = res.json<Body<{ id: string; owned: boolean; roleName: string; status: string }>>().data;
    expect(vo).toMatchObject({ owned: true, roleName: '项目负责人', status: 'active' });
    const center = await t.db.select().from(centers).where(eq(centers.projectId, vo.id));
    expect(center).toEqual([expect.objectContaining({ isDefault: true, name: '示例第一人民医院', code: 'C01' })]);
    const member = await t.db.select().from(projectMembers).where(eq(projectMembers.projectId, vo.id));
    expect(member).toHaveLength(1);
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, vo.id));
    expect(events.map((e) => e.action)).toEqual(['project.create']);
    const list = await t.api({ method: 'POST', url: '/web-project/list', token: owner, payload: {} });
    expect(
      list.json<Body<{ projectVOs: { projectCode: string }[] }>>().data.projectVOs.map((p) => p.projectCode),
    ).toContain('CKD-01');
  });

  it('should refuse a bad code with its field path and write nothing when the input is invalid', async () => {
    const before = await countRows(t, 'projects');
    const res = await create(owner, { code: '中文 编码', name: '' });
    expect(res.statusCode).toBe(400);
    const paths = res.json<Body>().issues?.map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['code', 'name']));
    expect(res.json<Body>().issues?.find((i) => i.path === 'code')?.message).toBe(
      '编码：项目编码只能包含字母、数字、下划线和短横线',
    );
    expect(await countRows(t, 'projects')).toBe(before);
  });

  it('should answer 409 when the code is taken in the tenant', async () => {
    const res = await create(owner, { code: 'hf-reg', name: '重复' });
    expect(res.statusCode).toBe(409);
    expect(res.json<Body>().message).toBe('项目编码已存在');
  });

  it('should create one project when codes differing only in case arrive at once, and answer 409 to the rest', async () => {
    const codes = ['RACE-P1', 'race-p1', 'Race-P1', 'rACE-p1'];
    const results = await Promise.all(codes.map((code) => create(owner, { code, name: `并发${code}` })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409]);
    for (const r of results.filter((x) => x.statusCode === 409)) expect(r.json<Body>().message).toBe('项目编码已存在');
    const { rows } = await t.database.pool.query("select code from projects where lower(code) = 'race-p1'");
    expect(rows).toHaveLength(1);
    // the database itself holds the rule, whatever a caller checked before
    const [first] = await t.db
      .select()
      .from(projects)
      .where(eq(projects.code, rows[0]?.code as string));
    const copy = { tenantId: first!.tenantId, ownerId: first!.ownerId, code: 'race-P1', name: '直接写入' };
    await expect(t.db.insert(projects).values(copy)).rejects.toMatchObject({
      cause: { code: '23505', constraint: 'projects_tenant_code_ci_uq' },
    });
  });

  it('should refuse 403 when a tenant member without project.create creates a top-level project', async () => {
    const res = await create(entry, { code: 'X-1', name: '无权' });
    expect(res.statusCode).toBe(403);
  });

  it('should create a sub-project for the parent owner and refuse data entry, grandchildren and foreign parents', async () => {
    const sub = await create(owner, { code: 'HF-REG-HFREF', name: '射血分数降低型亚组', parentId: hfId });
    expect(sub.statusCode).toBe(200);
    const subVo = sub.json<Body<{ id: string; subProject: boolean; parentId: string }>>().data;
    expect(subVo).toMatchObject({ subProject: true, parentId: hfId });
    expect(await t.db.select().from(centers).where(eq(centers.projectId, subVo.id))).toHaveLength(0);

    expect((await create(entry, { code: 'HF-E', name: '录入员建的', parentId: hfId })).statusCode).toBe(403);
    const grand = await create(owner, { code: 'HF-G', name: '孙项目', parentId: subVo.id });
    expect(grand.statusCode).toBe(409);
    expect(grand.json<Body>().message).toBe('子项目下不能再创建子项目');

    const foreign = await create(owner, { code: 'HF-F', name: '外部', parentId: foreignProjectId });
    const random = await create(owner, { code: 'HF-F', name: '外部', parentId: randomUUID() });
    expect(foreign.statusCode).toBe(404);
    expect({ ...foreign.json<Body>(), requestId: '' }).toEqual({ ...random.json<Body>(), requestId: '' });
  });
});

describe('PUT web-project and POST web-project/status', () => {
  it('should edit a project and audit the old and new values when the owner edits it', async () => {
    const res = await t.api({
      method: 'PUT',
      url: '/web-project',
      token: owner,
      payload: { id: t2dmId, description: '更新后的描述' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<Body<{ description: string }>>().data.description).toBe('更新后的描述');
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, t2dmId), eq(auditEvents.action, 'project.update')));
    expect(event?.oldValue).toEqual({ description: '2型糖尿病患者前瞻性随访队列' });
    expect(event?.newValue).toEqual({ description: '更新后的描述' });
  });

  it("should answer another tenant's project like a missing one and refuse a member who may not manage", async () => {
    const foreign = await t.api({
      method: 'PUT',
      url: '/web-project',
      token: owner,
      payload: { id: foreignProjectId, name: 'x' },
    });
    const random = await t.api({
      method: 'PUT',
      url: '/web-project',
      token: owner,
      payload: { id: randomUUID(), name: 'x' },
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json<Body>().message).toBe(random.json<Body>().message);
    const byEntry = await t.api({ method: 'PUT', url: '/web-project', token: entry, payload: { id: hfId, name: 'x' } });
    expect(byEntry.statusCode).toBe(403);
  });

  it('should follow the lifecycle and refuse a transition it does not allow', async () => {
    const vo = (await create(owner, { code: 'LIFE-1', name: '生命周期' })).json<Body<{ id: string }>>().data;
    const sub = (await create(owner, { code: 'LIFE-1-S', name: '子', parentId: vo.id })).json<Body<{ id: string }>>()
      .data;
    const status = (s: string) =>
      t.api({ method: 'POST', url: '/web-project/status', token: owner, payload: { id: vo.id, status: s } });
    expect((await status('locked')).statusCode).toBe(409);
    expect((await status('active')).json<Body<{ status: string }>>().data.status).toBe('active');
    expect((await status('locked')).statusCode).toBe(200);
    expect((await status('archived')).statusCode).toBe(200);
    const [child] = await t.db.select().from(projects).where(eq(projects.id, sub.id));
    expect(child?.status).toBe('archived');
    const restoreChild = await t.api({
      method: 'POST',
      url: '/web-project/status',
      token: owner,
      payload: { id: sub.id, status: 'active' },
    });
    expect(restoreChild.statusCode).toBe(409);
    expect(restoreChild.json<Body>().message).toBe('上级项目已归档，请先恢复上级项目');
    const edit = await t.api({ method: 'PUT', url: '/web-project', token: owner, payload: { id: vo.id, name: '改' } });
    expect(edit.statusCode).toBe(409);
    expect((await status('active')).statusCode).toBe(200);
  });
});

describe('search4join and join requests', () => {
  it("should find the tenant's projects the caller is not in, without private details, marking a pending request", async () => {
    const res = await t.api({
      method: 'POST',
      url: '/web-project/search4join',
      token: stat,
      payload: { keyword: '心力' },
    });
    expect(res.statusCode).toBe(200);
    const found = res.json<Body<Record<string, unknown>[]>>().data;
    expect(found).toEqual([expect.objectContaining({ projectCode: 'HF-REG', pending: true, ownerName: '王主任' })]);
    expect(found[0]).not.toHaveProperty('description');
    const byCode = await t.api({
      method: 'POST',
      url: '/web-project/search4join',
      token: stat,
      payload: { keyword: 't2dm-fu' },
    });
    expect(byCode.json<Body<unknown[]>>().data).toEqual([]);
    const empty = await t.api({
      method: 'POST',
      url: '/web-project/search4join',
      token: stat,
      payload: { keyword: '' },
    });
    expect(empty.statusCode).toBe(400);
  });

  it('should refuse a second pending request with 409 and the Chinese message', async () => {
    const res = await t.api({
      method: 'POST',
      url: '/web-project/join-request',
      token: stat,
      payload: { projectId: hfId },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json<Body>().message).toBe('已提交加入申请，请等待审核');
    const foreign = await t.api({
      method: 'POST',
      url: '/web-project/join-request',
      token: stat,
      payload: { projectId: foreignProjectId },
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('should create a membership on approval with the chosen role and center', async () => {
    const asked = await t.api({
      method: 'POST',
      url: '/web-project/join-request',
      token: nurse,
      payload: { projectId: t2dmId, message: '希望参与随访' },
    });
    expect(asked.statusCode).toBe(200);
    const request = asked.json<Body<{ id: string; status: string }>>().data;
    expect(request.status).toBe('pending');

    const pageOfStat = await t.api({ method: 'POST', url: '/web-project/join-request/page', token: stat, payload: {} });
    expect(pageOfStat.json<Body<{ total: number }>>().data.total).toBe(0);
    const byStat = await t.api({
      method: 'POST',
      url: '/web-project/join-request/approve',
      token: stat,
      payload: { id: request.id, roleId: await builtInRole('followup_nurse'), centerId: null },
    });
    expect(byStat.statusCode).toBe(404);

    const pageOfOwner = await t.api({
      method: 'POST',
      url: '/web-project/join-request/page',
      token: owner,
      payload: { status: 'pending' },
    });
    const records = pageOfOwner.json<Body<{ records: { id: string }[] }>>().data.records.map((r) => r.id);
    expect(records).toContain(request.id);

    const [center] = await t.db.select().from(centers).where(eq(centers.projectId, t2dmId));
    const approved = await t.api({
      method: 'POST',
      url: '/web-project/join-request/approve',
      token: owner,
      payload: { id: request.id, roleId: await builtInRole('followup_nurse'), centerId: center?.id ?? null },
    });
    expect(approved.statusCode).toBe(200);
    expect(approved.json<Body<{ status: string; roleName: string }>>().data).toMatchObject({
      status: 'approved',
      roleName: '随访护士',
    });
    const members = await t.db.select().from(projectMembers).where(eq(projectMembers.projectId, t2dmId));
    expect(members.map((m) => m.centerId)).toContain(center?.id);
    const again = await t.api({
      method: 'POST',
      url: '/web-project/join-request/refuse',
      token: owner,
      payload: { id: request.id, reason: '重复' },
    });
    expect(again.statusCode).toBe(409);
    const list = await t.api({ method: 'POST', url: '/web-project/list', token: nurse, payload: {} });
    expect(list.json<Body<{ projectVOs: { id: string }[] }>>().data.projectVOs.map((p) => p.id)).toContain(t2dmId);
  });

  it('should refuse with a reason, create no membership and show the state to the requester', async () => {
    const [pending] = await t.db.select().from(joinRequests).where(eq(joinRequests.projectId, hfId));
    if (!pending) throw new Error('seeded join request missing');
    const before = await countRows(t, 'project_members');
    const noReason = await t.api({
      method: 'POST',
      url: '/web-project/join-request/refuse',
      token: owner,
      payload: { id: pending.id, reason: ' ' },
    });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json<Body>().issues?.[0]).toEqual({ path: 'reason', message: '原因：请输入拒绝原因' });
    const res = await t.api({
      method: 'POST',
      url: '/web-project/join-request/refuse',
      token: owner,
      payload: { id: pending.id, reason: '本研究暂不需要统计师' },
    });
    expect(res.statusCode).toBe(200);
    expect(await countRows(t, 'project_members')).toBe(before);
    const mine = await t.api({ method: 'GET', url: '/web-project/join-request/mine', token: stat });
    expect(mine.json<Body<{ status: string; reason: string }[]>>().data[0]).toMatchObject({
      status: 'refused',
      reason: '本研究暂不需要统计师',
    });
  });
});

describe('join requests decided by a center lead', () => {
  it('should let a center lead approve only into their own center with a role within their own', async () => {
    const [h001] = await t.db.select().from(projects).where(eq(projects.id, hfId));
    const tenantId = h001?.tenantId ?? '';
    const hfCenters = await t.db.select().from(centers).where(eq(centers.projectId, hfId));
    const c01 = hfCenters.find((c) => c.code === 'C01')?.id ?? '';
    const c02 = hfCenters.find((c) => c.code === 'C02')?.id ?? '';
    const leadUser = await buildUser(t.db, tenantId);
    await t.db.insert(projectMembers).values({
      tenantId,
      projectId: hfId,
      userId: leadUser.id,
      roleId: await builtInRole('center_lead'),
      centerId: c02,
    });
    const lead = await t.login(leadUser.username, leadUser.password);
    const asker = await buildUser(t.db, tenantId);
    const askerToken = await t.login(asker.username, asker.password);
    const asked = await t.api({
      method: 'POST',
      url: '/web-project/join-request',
      token: askerToken,
      payload: { projectId: hfId },
    });
    const id = asked.json<Body<{ id: string }>>().data.id;
    const approve = (roleId: string, centerId: string | null) =>
      t.api({
        method: 'POST',
        url: '/web-project/join-request/approve',
        token: lead,
        payload: { id, roleId, centerId },
      });
    // The approval dialog's options: only roles within the lead's own, only the lead's center.
    const options = await t.api({ method: 'GET', url: `/web-project/join-request/options?id=${id}`, token: lead });
    expect(options.statusCode).toBe(200);
    const offered =
      options.json<Body<{ roles: { name: string }[]; centers: { id: string }[]; allCenters: boolean }>>().data;
    expect(offered.centers.map((c) => c.id)).toEqual([c02]);
    expect(offered.allCenters).toBe(false);
    expect(offered.roles.map((r) => r.name)).toContain('只读成员');
    expect(offered.roles.map((r) => r.name)).not.toContain('项目负责人');
    const ownerOptions = await t.api({
      method: 'GET',
      url: `/web-project/join-request/options?id=${id}`,
      token: owner,
    });
    const ofOwner =
      ownerOptions.json<Body<{ roles: { name: string }[]; centers: { id: string }[]; allCenters: boolean }>>().data;
    expect(ofOwner.allCenters).toBe(true);
    expect(ofOwner.centers.map((c) => c.id).sort()).toEqual([c01, c02].sort());
    expect(ofOwner.roles.map((r) => r.name)).toEqual(expect.arrayContaining(['项目负责人', '数据录入员', '质控员']));
    const byStranger = await t.api({ method: 'GET', url: `/web-project/join-request/options?id=${id}`, token: stat });
    const missing = await t.api({
      method: 'GET',
      url: `/web-project/join-request/options?id=${randomUUID()}`,
      token: stat,
    });
    expect(byStranger.statusCode).toBe(404);
    expect(byStranger.json<Body>().message).toBe(missing.json<Body>().message);

    expect((await approve(await builtInRole('viewer'), null)).statusCode).toBe(403);
    expect((await approve(await builtInRole('viewer'), c01)).statusCode).toBe(404);
    const aboveOwn = await approve(await builtInRole('project_owner'), c02);
    expect(aboveOwn.statusCode).toBe(403);
    expect(aboveOwn.json<Body>().message).toBe('不能授予超出自身权限的角色');
    expect((await approve(await builtInRole('viewer'), c02)).statusCode).toBe(200);
    const [membership] = await t.db
      .select()
      .from(projectMembers)
      .where(and(eq(projectMembers.projectId, hfId), eq(projectMembers.userId, asker.id)));
    expect(membership?.centerId).toBe(c02);
  });
});

describe('organisations and tenant doctors', () => {
  it("should list the tenant's organisations and let a center manager add one once", async () => {
    await t.api({ method: 'GET', url: `/web-project/change?projectId=${hfId}`, token: owner });
    const list = await t.api({ method: 'GET', url: '/web-project/org-list?keyword=第二', token: owner });
    expect(list.json<Body<{ name: string }[]>>().data.map((o) => o.name)).toEqual(['示例第二人民医院']);
    const added = await t.api({
      method: 'POST',
      url: '/web-project/org',
      token: owner,
      payload: { name: '示例第三人民医院' },
    });
    expect(added.statusCode).toBe(200);
    const dup = await t.api({
      method: 'POST',
      url: '/web-project/org',
      token: owner,
      payload: { name: '示例第三人民医院' },
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json<Body>().message).toBe('机构已存在');
    await t.api({ method: 'GET', url: `/web-project/change?projectId=${hfId}`, token: entry });
    const byEntry = await t.api({
      method: 'POST',
      url: '/web-project/org',
      token: entry,
      payload: { name: '录入员的医院' },
    });
    expect(byEntry.statusCode).toBe(403);
  });

  it('should list the active users of the acting tenant only when a project is current', async () => {
    const noProject = await t.api({ method: 'GET', url: '/web-project/current-project-tenant-doctors', token: stat });
    expect(noProject.statusCode).toBe(404);
    expect(noProject.json<Body>().message).toBe('请先选择项目');
    const res = await t.api({ method: 'GET', url: '/web-project/current-project-tenant-doctors', token: owner });
    const doctors = res.json<Body<{ username: string; departmentName: string }[]>>().data;
    expect(doctors.map((d) => d.username)).toEqual(expect.arrayContaining(['owner', 'entry', 'entry2', 'stat']));
    expect(doctors.map((d) => d.username)).not.toContain('admin');
    expect(doctors.map((d) => d.username)).not.toContain('personal');
    expect(doctors.find((d) => d.username === 'stat')?.departmentName).toBe('内分泌科');
  });
});

describe('sys tenant switch', () => {
  it("should show the acting tenant's name in user-info and its hospital in the project list when switched", async () => {
    const token = await t.login(admin.username, admin.password);
    expect((await t.api({ method: 'GET', url: '/auth/change?tenantCode=h001', token })).statusCode).toBe(200);
    const info = await t.api({ method: 'GET', url: '/sys-user/user-info', token });
    expect(info.json<Body<{ tenantName: string; homeTenantCode: string; tenantCode: string }>>().data).toMatchObject({
      tenantName: '示例第一人民医院',
      homeTenantCode: 'sys',
      tenantCode: 'h001',
    });
    const list = await t.api({ method: 'POST', url: '/web-project/list', token, payload: {} });
    expect(list.json<Body<{ hospitalName: string }>>().data.hospitalName).toBe('示例第一人民医院');
  });
});
