import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, centers } from '../../db/schema';
import {
  buildProject,
  buildTenant,
  buildUser,
  center,
  hospital,
  member,
  project,
  signedInUser,
  type Account,
} from '../../../test/factories';
import { countRows, createBareTestApp, type TestApp } from '../../../test/test-app';

type Body<T = unknown> = { status: number; message: string; data: T; issues?: { path: string; message: string }[] };
type Center = { id: string; code: string; name: string; isDefault: boolean; memberCount: number; status: string };

let t: TestApp;
let owner: string;
let entry: string;
let entry2: string;
let lead: string;
let hfId: string;
let hfpefId: string;
let admin: Account;
let stat: Account;
let secondOrgId: string;
let foreignOrgId: string;
let foreignCenterId: string;
let t2dmCenterId: string;
const centerOf = async (projectId: string, code: string) => {
  const [row] = await t.db
    .select()
    .from(centers)
    .where(and(eq(centers.projectId, projectId), eq(centers.code, code)));
  if (!row) throw new Error(`center ${code} missing`);
  return row;
};
const enter = (token: string, projectId: string) =>
  t.api({ method: 'GET', url: `/web-project/change?projectId=${projectId}`, token });
const listCenters = async (token: string) =>
  (await t.api({ method: 'GET', url: '/project-center/list', token })).json<Body<Center[]>>();

beforeAll(async () => {
  t = await createBareTestApp();
  // A hospital whose administrator owns hf (default center C01 at the hospital, C02 at a second hospital), a
  // sub-project of it and a second project; entry works at C01, entry2 and a center lead at C02.
  const h = await hospital(t, { tenant: { name: '示例第一人民医院' } });
  admin = h.admin;
  owner = admin.token;
  const hf = await project(t, admin);
  hfId = hf.id;
  hfpefId = (await project(t, admin, { parentId: hf.id })).id;
  t2dmCenterId = (await project(t, admin)).defaultCenterId;
  const c02 = await center(t, hf, { code: 'C02', name: '示例第二人民医院' });
  secondOrgId = c02.organisationId;
  entry = (await member(t, hf, 'data_entry')).token;
  entry2 = (await member(t, hf, 'data_entry', { centerId: c02.id })).token;
  lead = (await member(t, hf, 'center_lead', { centerId: c02.id })).token;
  // A doctor of the hospital who is no member of hf.
  stat = await signedInUser(t, h.tenantId);

  const other = await buildTenant(t.db);
  foreignOrgId = other.organisationId ?? '';
  const otherOwner = await buildUser(t.db, other.tenant.id);
  const otherProject = await buildProject(t.db, other.tenant.id, otherOwner.id);
  const [c] = await t.db
    .insert(centers)
    .values({
      tenantId: other.tenant.id,
      projectId: otherProject.id,
      organisationId: foreignOrgId,
      code: 'C01',
      name: '外院',
    })
    .returning();
  foreignCenterId = c?.id ?? '';
  for (const token of [owner, entry, entry2, lead]) await enter(token, hfId);
});
afterAll(async () => {
  await t?.close();
});

describe('GET project-center/list', () => {
  it("should list the project's centers, default first, for a member over all centers", async () => {
    const body = await listCenters(owner);
    expect(body.data.map((c) => [c.code, c.name, c.isDefault])).toEqual([
      ['C01', '示例第一人民医院', true],
      ['C02', '示例第二人民医院', false],
    ]);
    expect(body.data.find((c) => c.code === 'C02')?.memberCount).toBe(2);
  });

  it('should show a center-scoped member only their own center when the membership has a center', async () => {
    expect((await listCenters(entry)).data.map((c) => c.code)).toEqual(['C01']);
    expect((await listCenters(entry2)).data.map((c) => c.code)).toEqual(['C02']);
  });

  it("should give a sub-project its parent's centers", async () => {
    const token = await t.login(admin.username, admin.password);
    await enter(token, hfpefId);
    expect((await listCenters(token)).data.map((c) => c.code)).toEqual(['C01', 'C02']);
  });

  it('should answer 404 请先选择项目 when no project is current', async () => {
    const token = await t.login(stat.username, stat.password);
    const res = await t.api({ method: 'GET', url: '/project-center/list', token });
    expect(res.statusCode).toBe(404);
    expect(res.json<Body>().message).toBe('请先选择项目');
  });
});

describe('POST/PUT project-center, close and reopen', () => {
  it('should create a center and audit it when a manager over all centers sends a valid one', async () => {
    const res = await t.api({
      method: 'POST',
      url: '/project-center',
      token: owner,
      payload: { code: 'C03', name: '第二人民医院东院', organisationId: secondOrgId },
    });
    expect(res.statusCode).toBe(200);
    const created = res.json<Body<Center>>().data;
    expect(created).toMatchObject({ code: 'C03', status: 'active', isDefault: false, memberCount: 0 });
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, created.id));
    expect(events.map((e) => e.action)).toEqual(['center.create']);
    const dup = await t.api({
      method: 'POST',
      url: '/project-center',
      token: owner,
      payload: { code: 'c03', name: '重复', organisationId: secondOrgId },
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json<Body>().message).toBe('中心编码已存在');
  });

  it('should create one center when codes differing only in case arrive at once, and answer 409 to the rest', async () => {
    const codes = ['RC-1', 'rc-1', 'Rc-1', 'rC-1'];
    const results = await Promise.all(
      codes.map((code) =>
        t.api({
          method: 'POST',
          url: '/project-center',
          token: owner,
          payload: { code, name: `并发${code}`, organisationId: secondOrgId },
        }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409]);
    for (const r of results.filter((x) => x.statusCode === 409)) expect(r.json<Body>().message).toBe('中心编码已存在');
    const created = await t.db.select().from(centers).where(eq(centers.projectId, hfId));
    const same = created.filter((c) => c.code.toLowerCase() === 'rc-1');
    expect(same).toHaveLength(1);
    // the database itself holds the rule, whatever a caller checked before
    const { id: _id, createdAt: _c, updatedAt: _u, ...row } = same[0]!;
    await expect(
      t.db.insert(centers).values({ ...row, code: 'RC-1'.toLowerCase() === row.code ? 'RC-1' : 'rc-1' }),
    ).rejects.toMatchObject({
      cause: { code: '23505', constraint: 'centers_project_code_ci_uq' },
    });
  });

  it('should refuse bad input with field paths and write nothing', async () => {
    const before = await countRows(t, 'centers');
    const res = await t.api({
      method: 'POST',
      url: '/project-center',
      token: owner,
      payload: { code: '', name: 'x', organisationId: 'nope' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>().issues?.map((i) => i.path)).toEqual(expect.arrayContaining(['code', 'organisationId']));
    expect(await countRows(t, 'centers')).toBe(before);
  });

  it('should refuse 403 without center.manage and 403 to a center lead creating a center', async () => {
    const payload = { code: 'C09', name: '无权', organisationId: secondOrgId };
    expect((await t.api({ method: 'POST', url: '/project-center', token: entry, payload })).statusCode).toBe(403);
    expect((await t.api({ method: 'POST', url: '/project-center', token: lead, payload })).statusCode).toBe(403);
  });

  it("should answer another tenant's organisation like a missing one and refuse a lead who is not a member", async () => {
    const post = (organisationId: string, leadUserId?: string) =>
      t.api({
        method: 'POST',
        url: '/project-center',
        token: owner,
        payload: { code: 'C10', name: 'x', organisationId, ...(leadUserId ? { leadUserId } : {}) },
      });
    const foreign = await post(foreignOrgId);
    const random = await post(randomUUID());
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json<Body>().message).toBe(random.json<Body>().message);
    const notMember = await post(secondOrgId, stat.id);
    expect(notMember.statusCode).toBe(400);
    expect(notMember.json<Body>().message).toBe('负责人须为项目成员');
  });

  it("should answer another tenant's, another project's and another center's id exactly like a random id", async () => {
    const put = (id: string, token = owner) =>
      t.api({ method: 'PUT', url: '/project-center', token, payload: { id, name: '改名' } });
    const random = await put(randomUUID());
    expect(random.statusCode).toBe(404);
    for (const id of [foreignCenterId, t2dmCenterId]) {
      const res = await put(id);
      expect(res.statusCode).toBe(404);
      expect({ ...res.json<Body>(), requestId: '' }).toEqual({ ...random.json<Body>(), requestId: '' });
    }
    const c01 = (await centerOf(hfId, 'C01')).id;
    expect((await put(c01, lead)).statusCode).toBe(404);
    const own = await put((await centerOf(hfId, 'C02')).id, lead);
    expect(own.statusCode).toBe(200);
    expect(own.json<Body<Center>>().data.name).toBe('改名');
  });

  it('should close and reopen a center but never the default one', async () => {
    const c01 = (await centerOf(hfId, 'C01')).id;
    const c03 = (await centerOf(hfId, 'C03')).id;
    const closeDefault = await t.api({
      method: 'POST',
      url: '/project-center/close',
      token: owner,
      payload: { id: c01 },
    });
    expect(closeDefault.statusCode).toBe(409);
    expect(closeDefault.json<Body>().message).toBe('默认中心不能关闭');
    const closed = await t.api({ method: 'POST', url: '/project-center/close', token: owner, payload: { id: c03 } });
    expect(closed.json<Body<Center>>().data.status).toBe('closed');
    const reopened = await t.api({ method: 'POST', url: '/project-center/reopen', token: owner, payload: { id: c03 } });
    expect(reopened.json<Body<Center>>().data.status).toBe('active');
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, c03));
    expect(events.map((e) => e.action)).toEqual(['center.create', 'center.close', 'center.reopen']);
  });
});
