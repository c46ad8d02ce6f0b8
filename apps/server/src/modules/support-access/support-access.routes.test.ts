import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_ROLES } from '@registry/shared/roles';
import { auditEvents } from '../../db/schema';
import {
  buildTenant,
  hospital,
  member,
  project,
  signedInUser,
  systemAdmin,
  type Account,
} from '../../../test/factories';
import { countRows, createBareTestApp, type TestApp } from '../../../test/test-app';

type Body<T = unknown> = { status: number; message: string; data: T };
type Patient = {
  id: string;
  name: string;
  idNumber: string | null;
  phone: string | null;
  masked: boolean;
  rowVersion: number;
};
type Page = { records: Patient[]; total: number };
type Grants = { activeUntil: string | null; grants: { id: string; active: boolean; grantedByName: string }[] };
type UserInfo = { tenantCode: string; homeTenantCode: string; supportAccessUntil: string | null };

let t: TestApp;
let owner: string;
let h001: string;
/** The accounts of the scenario, by their part. */
const who = {} as Record<'admin' | 'owner' | 'entry' | 'personal', Account>;
/** A new session of the account: no current project or switched tenant. */
const signIn = (a: Account) => t.login(a.username, a.password);

/** The system administrator, switched into `tenantCode`, inside the project of `projectCode`. */
async function adminIn(tenantCode: string, projectCode: string): Promise<string> {
  const token = await signIn(who.admin);
  expect((await t.api({ method: 'GET', url: '/auth/change', query: { tenantCode }, token })).statusCode).toBe(200);
  return enter(token, projectCode);
}

async function enter(token: string, projectCode: string): Promise<string> {
  const list = await t.api({ method: 'POST', url: '/web-project/list', token, payload: {} });
  const project = list
    .json<Body<{ projectVOs: { id: string; projectCode: string }[] }>>()
    .data.projectVOs.find((p) => p.projectCode === projectCode);
  expect(project, projectCode).toBeDefined();
  const enter = await t.api({ method: 'GET', url: '/web-project/change', query: { projectId: project!.id }, token });
  expect(enter.statusCode).toBe(200);
  return token;
}

const patients = async (token: string) =>
  t.api({ method: 'POST', url: '/patient-info/page', token, payload: { current: 1, size: 20 } });
const userInfo = async (token: string) =>
  (await t.api({ method: 'GET', url: '/sys-user/user-info', token })).json<Body<UserInfo>>().data;
const permissions = async (token: string) =>
  (await t.api({ method: 'GET', url: '/auth/menu', query: { groupCode: 'project' }, token })).json<
    Body<{ permissions: string[] }>
  >().data.permissions;
const auditsOf = (tenantId: string, action: string) =>
  t.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.tenantId, tenantId), eq(auditEvents.action, action)));
const grant = (token: string, payload: Record<string, unknown>) =>
  t.api({ method: 'POST', url: '/support-access', token, payload });

beforeAll(async () => {
  // Long enough idle time for the clock to pass a grant's end without ending the sessions.
  t = await createBareTestApp({ SESSION_IDLE_MINUTES: '600' });
  // The system administrator; hospital h001 whose administrator owns HF-REG (a data-entry member in it); a personal
  // tenant p001 whose user keeps MY-CASES.
  who.admin = await systemAdmin(t);
  const h = await hospital(t, { tenant: { code: 'h001' } });
  h001 = h.tenantId;
  who.owner = h.admin;
  const hf = await project(t, h.admin, { code: 'HF-REG' });
  who.entry = await member(t, hf, 'data_entry');
  const p001 = await buildTenant(t.db, { code: 'p001', type: 'PERSONAL' });
  who.personal = await signedInUser(t, p001.tenant.id, {
    userType: 'PERSONAL',
    tenantRoleCode: BUILT_IN_ROLES.personal.code,
  });
  await project(t, who.personal, { code: 'MY-CASES' });
  owner = await signIn(who.owner);
  const personal = await enter(await signIn(who.personal), 'MY-CASES');
  await enter(owner, 'HF-REG');
  const people = [
    { token: owner, name: '王小明', idNumber: '110105199003071239', phone: '13800000001' },
    { token: owner, name: '欧阳娜娜', phone: '13900000002' },
    { token: personal, name: '李四', phone: '13700000003' },
  ];
  for (const { token, ...fields } of people) {
    const centers = await t.api({ method: 'GET', url: '/project-center/list', token });
    const centerId = centers.json<Body<{ id: string }[]>>().data[0]?.id;
    const payload = { ...fields, ...(centerId ? { centerId } : {}) };
    const res = await t.api({ method: 'POST', url: '/patient-info', token, payload });
    expect(res.statusCode, res.body).toBe(200);
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('a system administrator switched into a tenant, without support access', () => {
  it('should read patients masked, hold no write or identity code, and be refused a patient update', async () => {
    const admin = await adminIn('h001', 'HF-REG');
    const page = await patients(admin);
    expect(page.statusCode).toBe(200);
    const records = page.json<Body<Page>>().data.records;
    expect(records.length).toBeGreaterThan(0);
    for (const p of records) {
      expect(p.masked).toBe(true);
      expect(p.name).toContain('*');
      if (p.idNumber) expect(p.idNumber).toContain('*');
      if (p.phone) expect(p.phone).toContain('*');
    }
    const held = await permissions(admin);
    expect(held).toEqual(expect.arrayContaining(['database.config', 'patient.list', 'followup.list']));
    for (const code of ['patient.pii', 'patient.edit', 'patient.add', 'patient.export', 'followup.edit'])
      expect(held).not.toContain(code);
    const target = records[0]!;
    const before = await countRows(t, 'patients');
    const update = await t.api({
      method: 'PUT',
      url: '/patient-info',
      token: admin,
      payload: { id: target.id, rowVersion: target.rowVersion, name: '改名' },
    });
    expect(update.statusCode).toBe(403);
    expect(update.json<Body>().message).toBe('无权限执行此操作');
    expect(await countRows(t, 'patients')).toBe(before);
    expect((await userInfo(admin)).supportAccessUntil).toBeNull();
  });

  it("should not manage the tenant's accounts or projects, nor grant itself support access", async () => {
    const admin = await adminIn('h001', 'HF-REG');
    expect((await t.api({ method: 'POST', url: '/sys-user/page', token: admin, payload: {} })).statusCode).toBe(403);
    expect((await grant(admin, { hours: 2 })).statusCode).toBe(403);
    expect((await t.api({ method: 'GET', url: '/support-access/list', token: admin })).statusCode).toBe(403);
  });

  it("should read a personal user's private case library masked as well", async () => {
    const admin = await adminIn('p001', 'MY-CASES');
    const page = await patients(admin);
    expect(page.statusCode).toBe(200);
    const records = page.json<Body<Page>>().data.records;
    expect(records.map((p) => p.name)).toEqual(['李*']);
    expect(records[0]).toMatchObject({ masked: true, phone: '137****0003' });
    expect(await permissions(admin)).not.toContain('patient.pii');
  });

  it('should record the switch in the tenant entered and let the administrator switch back to the system tenant', async () => {
    const before = (await auditsOf(h001, 'tenant.switch')).length;
    const admin = await adminIn('h001', 'HF-REG');
    expect((await auditsOf(h001, 'tenant.switch')).length).toBe(before + 1);
    const back = await t.api({ method: 'GET', url: '/auth/change', query: { tenantCode: 'sys' }, token: admin });
    expect(back.statusCode).toBe(200);
    expect(await userInfo(admin)).toMatchObject({ tenantCode: 'sys', homeTenantCode: 'sys' });
  });
});

describe('support access granted by the tenant administrator', () => {
  it('should refuse hours outside 1–72 with a message naming the limit, writing nothing', async () => {
    const before = await countRows(t, 'support_access_grants');
    const zero = await grant(owner, { hours: 0 });
    expect(zero.statusCode).toBe(400);
    expect(zero.json<Body>().message).toContain('授权时长至少1小时');
    const long = await grant(owner, { hours: 73 });
    expect(long.statusCode).toBe(400);
    expect(long.json<Body>().message).toContain('授权时长不能超过72小时');
    expect(await countRows(t, 'support_access_grants')).toBe(before);
  });

  it('should refuse a tenant member who is not its administrator', async () => {
    const entry = await signIn(who.entry);
    expect((await grant(entry, { hours: 1 })).statusCode).toBe(403);
  });

  it('should unmask reads and allow changes for the grant, audit every call, then end by itself', async () => {
    const admin = await adminIn('h001', 'HF-REG');
    const granted = await grant(owner, { hours: 2, reason: '排查导入问题' });
    expect(granted.statusCode).toBe(200);
    const list = granted.json<Body<Grants>>().data;
    expect(list.activeUntil).not.toBeNull();
    expect(list.grants[0]).toMatchObject({ active: true, grantedByName: expect.any(String) });
    expect(await auditsOf(h001, 'support.grant')).toHaveLength(1);

    expect((await userInfo(admin)).supportAccessUntil).toBe(list.activeUntil);
    const accessBefore = (await auditsOf(h001, 'support.access')).length;
    const page = await patients(admin);
    const records = page.json<Body<Page>>().data.records;
    expect(records.map((p) => p.name).sort()).toEqual(['欧阳娜娜', '王小明']);
    expect(records.every((p) => !p.masked)).toBe(true);
    const accessed = await auditsOf(h001, 'support.access');
    expect(accessed.length).toBe(accessBefore + 1);
    expect(accessed.at(-1)?.entityId).toBe('POST /api/cmdb-template/patient-info/page');
    expect(await permissions(admin)).toContain('patient.pii');
    // A change under support access goes through (and is the service's own audited change).
    const target = records.find((p) => p.name === '王小明')!;
    const update = await t.api({
      method: 'PUT',
      url: '/patient-info',
      token: admin,
      payload: { id: target.id, rowVersion: target.rowVersion, phone: '13800000009' },
    });
    expect(update.statusCode, update.body).toBe(200);

    t.clock.advanceMinutes(121);
    expect((await userInfo(admin)).supportAccessUntil).toBeNull();
    const after = (await patients(admin)).json<Body<Page>>().data.records;
    expect(after.map((p) => p.name).sort()).toEqual(['欧阳**', '王**'].sort());
    expect(after.every((p) => p.masked)).toBe(true);
  });

  it('should end at once when the administrator revokes it, audited, and refuse a second revocation', async () => {
    const admin = await adminIn('h001', 'HF-REG');
    const granted = (await grant(owner, { hours: 24 })).json<Body<Grants>>().data;
    const id = granted.grants.find((g) => g.active)!.id;
    expect((await patients(admin)).json<Body<Page>>().data.records.map((p) => p.masked)).toEqual([false, false]);

    const revoke = await t.api({ method: 'POST', url: '/support-access/revoke', token: owner, payload: { id } });
    expect(revoke.statusCode).toBe(200);
    expect(revoke.json<Body<Grants>>().data.activeUntil).toBeNull();
    const revokedEvents = await auditsOf(h001, 'support.revoke');
    expect(revokedEvents.map((e) => e.entityId)).toContain(id);
    expect((await patients(admin)).json<Body<Page>>().data.records.map((p) => p.masked)).toEqual([true, true]);
    expect((await userInfo(admin)).supportAccessUntil).toBeNull();

    const again = await t.api({ method: 'POST', url: '/support-access/revoke', token: owner, payload: { id } });
    expect(again.statusCode).toBe(409);
    expect(again.json<Body>().message).toBe('该授权已结束');
  });

  it("should not let one tenant's grant open another tenant", async () => {
    await grant(owner, { hours: 5 });
    const admin = await adminIn('p001', 'MY-CASES');
    expect((await userInfo(admin)).supportAccessUntil).toBeNull();
    expect(await permissions(admin)).not.toContain('patient.pii');
  });

  it('should let a personal user grant support access to its own case library', async () => {
    const personal = await signIn(who.personal);
    expect((await grant(personal, { hours: 1 })).statusCode).toBe(200);
    const admin = await adminIn('p001', 'MY-CASES');
    expect(await permissions(admin)).toContain('patient.pii');
  });
});
