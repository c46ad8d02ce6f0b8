import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditFieldLabel, type AuditOptionsResponse, type AuditPageResponse } from '@registry/shared/contracts/audit';
import { eq } from 'drizzle-orm';
import { centers, formVersions, organisations, patients, projects, users } from '../../db/schema';
import { audit } from '../../plugins/audit';
import { HF_REG_DEFINITION } from '../../db/seed-database';
import {
  buildUser,
  hospital,
  member,
  project as createProject,
  publishCrf,
  TEST_PASSWORD,
} from '../../../test/factories';
import { createBareTestApp, type TestApp } from '../../../test/test-app';

type Body<T = unknown> = { status: number; message: string; data: T };

let t: TestApp;
let h001: string;
const project: Record<string, string> = {};
const user: Record<string, string> = {};

beforeAll(async () => {
  t = await createBareTestApp();
  // Hospital h001: its administrator `owner` (王主任) owns HF-REG (the heart-failure CRF published; entry, nurse and
  // monitor in it) and T2DM-FU (monitor in it too).
  const h = await hospital(t, { tenant: { code: 'h001' }, admin: { username: 'owner', name: '王主任' } });
  h001 = h.tenantId;
  // T2DM-FU and its monitor first: a session that leaves HF-REG for T2DM-FU is an event of HF-REG's trail.
  const t2dm = await createProject(t, h.admin, { code: 'T2DM-FU', name: '2型糖尿病随访队列' });
  const monitor = await member(t, t2dm, 'monitor', {
    centerId: null,
    user: { username: 'monitor', name: '赵监查' },
  });
  const hf = await createProject(t, h.admin, { code: 'HF-REG', name: '心力衰竭注册登记研究' });
  await publishCrf(t, h.admin.token, HF_REG_DEFINITION);
  await member(t, hf, 'data_entry', { user: { username: 'entry', name: '张录入' } });
  await member(t, hf, 'followup_nurse', { centerId: null, user: { username: 'nurse', name: '李护士' } });
  await member(t, hf, 'monitor', { centerId: null, account: monitor });
  for (const p of await t.db.select({ id: projects.id, code: projects.code }).from(projects)) project[p.code] = p.id;
  for (const u of await t.db.select({ id: users.id, username: users.username }).from(users)) user[u.username] = u.id;
});
afterAll(async () => {
  await t?.close();
});

async function enter(username: string, code: string): Promise<string> {
  const token = await t.login(username, TEST_PASSWORD);
  const res = await t.api({
    method: 'GET',
    url: '/web-project/change',
    token,
    query: { projectId: project[code] ?? '' },
  });
  expect(res.statusCode).toBe(200);
  return token;
}

const page = (token: string, payload: Record<string, unknown> = {}) =>
  t.api({ method: 'POST', url: '/audit-event/page', token, payload });

const ctx = (actor: string) => ({
  actorId: user[actor] ?? null,
  tenantId: h001,
  requestId: 'req-test',
  ip: '10.0.0.1',
});

describe('POST audit-event/page', () => {
  it('should answer 403 when the caller lacks audit.view', async () => {
    const entry = await enter('entry', 'HF-REG');
    expect((await page(entry)).statusCode).toBe(403);
    const ownerOutsideProjects = await t.login('owner', TEST_PASSWORD);
    const res = await page(ownerOutsideProjects);
    expect(res.statusCode).toBe(403);
    expect(res.json<Body>().message).toBe('无权限执行此操作');
  });

  it("should list only the current project's events, newest first, with Chinese labels and the actor", async () => {
    await audit(t.db, ctx('owner'), {
      action: 'center.create',
      entityType: 'center',
      entityId: 'c-hf',
      newValue: { projectId: project['HF-REG'], name: '北京中心' },
    });
    await audit(t.db, ctx('owner'), {
      action: 'center.create',
      entityType: 'center',
      entityId: 'c-t2dm',
      newValue: { projectId: project['T2DM-FU'], name: '上海中心' },
    });
    for (const entityId of ['c-hf', 'c-t2dm'])
      await audit(t.db, ctx('owner'), {
        action: 'center.close',
        entityType: 'center',
        entityId,
        oldValue: { status: 'active' },
        newValue: { status: 'closed' },
      });
    const monitor = await enter('monitor', 'HF-REG');
    const res = await page(monitor);
    expect(res.statusCode).toBe(200);
    const data = res.json<Body<AuditPageResponse>>().data;
    const entityIds = data.records.map((r) => r.entityId);
    expect(entityIds).toContain('c-hf');
    expect(entityIds).toContain(project['HF-REG']);
    expect(entityIds).not.toContain('c-t2dm');
    expect(entityIds).not.toContain(project['T2DM-FU']);
    expect(data.records.map((r) => r.action)).not.toContain('login');
    const ids = data.records.map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const center = data.records.find((r) => r.entityId === 'c-hf' && r.action === 'center.create');
    expect(center).toMatchObject({
      actionLabel: '新增分中心',
      entityLabel: '分中心',
      actor: { id: user.owner, username: 'owner' },
      newValue: { name: '北京中心' },
      requestId: 'req-test',
      ip: '10.0.0.1',
    });
    // a later event of an entity created in the project belongs to the project too
    expect(data.records.filter((r) => r.action === 'center.close').map((r) => r.entityId)).toEqual(['c-hf']);
    const enterEvent = data.records.find((r) => r.action === 'project.enter');
    expect(enterEvent?.actionLabel).toBe('进入项目');
    // The viewer names what an event is about (read now, within the tenant); an id that names no row has no name.
    expect(enterEvent?.entityName).toBe('心力衰竭注册登记研究');
    expect(center?.entityName).toBeNull();
  });

  it('should name the ids in the values (project, user, patient by its number) and the patient entity by its number', async () => {
    const projectId = project['HF-REG'] ?? '';
    const [org] = await t.db
      .select({ id: organisations.id })
      .from(organisations)
      .where(eq(organisations.tenantId, h001))
      .limit(1);
    const [center] = await t.db
      .insert(centers)
      .values({ tenantId: h001, projectId, organisationId: org?.id ?? '', code: 'AUD', name: '审计测试中心' })
      .returning({ id: centers.id });
    const [patient] = await t.db
      .insert(patients)
      .values({
        tenantId: h001,
        projectId,
        centerId: center?.id ?? '',
        seq: 901,
        patientNo: 'AUD-0901',
        name: '赵审计',
      })
      .returning({ id: patients.id, patientNo: patients.patientNo, name: patients.name });
    if (!patient) throw new Error('no patient');
    await audit(t.db, ctx('owner'), {
      action: 'patient.update',
      entityType: 'patient',
      entityId: patient.id,
      oldValue: { projectId: project['HF-REG'], ownerId: user.entry, patientId: patient.id, status: 'screening' },
      newValue: { projectId: project['HF-REG'], ownerId: user.owner, patientId: patient.id, status: 'enrolled' },
    });
    const monitor = await enter('monitor', 'HF-REG');
    const data = (await page(monitor, { action: 'patient.update' })).json<Body<AuditPageResponse>>().data;
    const event = data.records.find((r) => r.entityId === patient.id);
    expect(event?.entityName).toBe(patient.patientNo);
    expect(event?.valueNames).toMatchObject({
      [project['HF-REG'] ?? '']: '心力衰竭注册登记研究',
      [user.entry ?? '']: expect.any(String),
      [user.owner ?? '']: expect.any(String),
      [patient.id]: patient.patientNo,
    });
    expect(JSON.stringify(event?.valueNames)).not.toContain(patient.name);
  });

  it('should show a form record’s form and field keys as the titles of the definition version it names', async () => {
    const projectId = project['HF-REG'] ?? '';
    const [version] = await t.db
      .select({ id: formVersions.id })
      .from(formVersions)
      .where(eq(formVersions.projectId, projectId))
      .limit(1);
    const versionId = version?.id ?? '';
    const recordId = '00000000-0000-4000-8000-00000000a0d1';
    // the shape the record writer audits: changed leaf paths, a group cell as `group.row.column`
    await audit(t.db, ctx('entry'), {
      action: 'form_record.update',
      entityType: 'form_record',
      entityId: recordId,
      oldValue: { projectId, formKey: 'medications', instance: 1, versionId, values: { 'meds.0.dose': '25 mg' } },
      newValue: {
        projectId,
        formKey: 'medications',
        instance: 1,
        versionId,
        values: { 'meds.0.dose': '50 mg', 'meds.1.drug_name': '呋塞米' },
      },
    });
    const monitor = await enter('monitor', 'HF-REG');
    const data = (await page(monitor, { action: 'form_record.update' })).json<Body<AuditPageResponse>>().data;
    const event = data.records.find((r) => r.entityId === recordId);
    expect(event?.fieldLabels).toEqual({ meds: '用药', dose: '剂量', drug_name: '药品' });
    expect(event?.valueNames).toMatchObject({ medications: '用药记录' });
    expect(auditFieldLabel('values.meds.1.drug_name', event?.fieldLabels)).toBe('数据.用药.1.药品');
  });

  it('should keep pages stable when events are written between two pages', async () => {
    const owner = await enter('owner', 'T2DM-FU');
    for (let i = 0; i < 5; i++) {
      await audit(t.db, ctx('owner'), {
        action: 'member.update',
        entityType: 'member',
        entityId: `m${i}`,
        newValue: { projectId: project['T2DM-FU'] },
      });
    }
    const first = (await page(owner, { current: 1, size: 2 })).json<Body<AuditPageResponse>>().data;
    expect(first.records.map((r) => r.entityId)).toEqual(['m4', 'm3']);
    await audit(t.db, ctx('owner'), {
      action: 'member.update',
      entityType: 'member',
      entityId: 'later',
      newValue: { projectId: project['T2DM-FU'] },
    });
    const second = (await page(owner, { current: 2, size: 2, anchorId: first.anchorId })).json<
      Body<AuditPageResponse>
    >().data;
    expect(second.records.map((r) => r.entityId)).toEqual(['m2', 'm1']);
    expect(second.total).toBe(first.total);
    const fresh = (await page(owner, { current: 1, size: 2 })).json<Body<AuditPageResponse>>().data;
    expect(fresh.records[0]?.entityId).toBe('later');
    expect(fresh.total).toBe(first.total + 1);
  });

  it('should filter by actor, action, entity and time when the filters are given', async () => {
    const owner = await enter('owner', 'T2DM-FU');
    const byAction = (await page(owner, { action: 'member.update', entityId: 'm2' })).json<Body<AuditPageResponse>>();
    expect(byAction.data.records.map((r) => r.entityId)).toEqual(['m2']);
    const byEntity = (await page(owner, { entityType: 'project' })).json<Body<AuditPageResponse>>().data;
    expect(byEntity.records.length).toBeGreaterThan(0);
    expect(byEntity.records.every((r) => r.entityType === 'project')).toBe(true);
    const byActor = (await page(owner, { actorId: user.monitor })).json<Body<AuditPageResponse>>().data;
    expect(byActor.records.every((r) => r.actor?.id === user.monitor)).toBe(true);
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const none = (await page(owner, { from: future })).json<Body<AuditPageResponse>>().data;
    expect(none).toMatchObject({ records: [], total: 0, anchorId: null });
    const past = (await page(owner, { to: '2000-01-01T00:00:00Z' })).json<Body<AuditPageResponse>>().data;
    expect(past.total).toBe(0);
  });

  it('should refuse a malformed filter with 400 and a Chinese message', async () => {
    const owner = await enter('owner', 'T2DM-FU');
    const res = await page(owner, { from: 'yesterday' });
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>().message).toContain('时间格式不正确');
  });

  it("should list the sign-outs and profile changes made in the project, and the join decisions on it, by the event's project", async () => {
    const applicant = await buildUser(t.db, h001, { name: '周申请' });
    const applicantToken = await t.login(applicant.username, applicant.password);
    const asked = await t.api({
      method: 'POST',
      url: '/web-project/join-request',
      token: applicantToken,
      payload: { projectId: project['HF-REG'] },
    });
    expect(asked.statusCode).toBe(200);
    const requestId = asked.json<Body<{ id: string }>>().data.id;
    // the owner decides while working in the other project: the decision is about HF-REG
    const ownerInT2dm = await enter('owner', 'T2DM-FU');
    const refused = await t.api({
      method: 'POST',
      url: '/web-project/join-request/refuse',
      token: ownerInT2dm,
      payload: { id: requestId, reason: '名额已满' },
    });
    expect(refused.statusCode).toBe(200);
    // a session in HF-REG: its profile change and sign-out name no project in their values
    const nurse = await enter('nurse', 'HF-REG');
    expect(
      (await t.api({ method: 'PUT', url: '/sys-user', token: nurse, payload: { name: '李护士长' } })).statusCode,
    ).toBe(200);
    expect((await t.api({ method: 'POST', url: '/auth/logout', token: nurse })).statusCode).toBe(200);

    const inHf = (await page(await enter('monitor', 'HF-REG'), { size: 200 })).json<Body<AuditPageResponse>>().data;
    const hfEvents = inHf.records.map((r) => `${r.action}:${r.entityId ?? ''}`);
    expect(hfEvents).toContain(`join-request.refuse:${requestId}`);
    expect(inHf.records.filter((r) => r.actor?.id === user.nurse).map((r) => r.action)).toEqual(
      expect.arrayContaining(['logout', 'user.update', 'project.enter']),
    );
    const inT2dm = (await page(ownerInT2dm, { size: 200 })).json<Body<AuditPageResponse>>().data;
    expect(inT2dm.records.map((r) => `${r.action}:${r.entityId ?? ''}`)).not.toContain(
      `join-request.refuse:${requestId}`,
    );
    expect(inT2dm.records.filter((r) => r.actor?.id === user.nurse).map((r) => r.action)).not.toContain('logout');
    // the existing filters still narrow the project's events
    const logouts = (await page(ownerInT2dm, { action: 'logout', size: 200 })).json<Body<AuditPageResponse>>().data;
    expect(logouts.records.every((r) => r.action === 'logout')).toBe(true);
  });

  it('should never show a password hash or a token when listing sign-ins and password changes', async () => {
    const entry = await t.login('entry', TEST_PASSWORD);
    await t.api({
      method: 'POST',
      url: '/sys-user/change-pwd',
      token: entry,
      payload: { password: TEST_PASSWORD, newPassword: 'Demo@2027-audit' },
    });
    const monitor = await enter('monitor', 'HF-REG');
    const res = await page(monitor, { size: 200 });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toMatch(/\$argon2/);
    expect(res.body).not.toContain(monitor);
    const { rows } = await t.database.pool.query<{ v: string }>(
      "select coalesce(old_value::text, '') || coalesce(new_value::text, '') as v from audit_events",
    );
    expect(rows.map((r) => r.v).join('\n')).not.toMatch(/\$argon2|Demo@2027-audit/);
  });
});

describe('GET audit-event/options', () => {
  it("should list the project's actors, actions and entity types with Chinese labels", async () => {
    const owner = await enter('owner', 'HF-REG');
    const res = await t.api({ method: 'GET', url: '/audit-event/options', token: owner });
    expect(res.statusCode).toBe(200);
    const data = res.json<Body<AuditOptionsResponse>>().data;
    expect(data.actions).toContainEqual({ value: 'center.create', label: '新增分中心' });
    expect(data.actions).toContainEqual({ value: 'project.enter', label: '进入项目' });
    expect(data.actions.map((a) => a.value)).not.toContain('member.update');
    expect(data.entityTypes).toContainEqual({ value: 'project', label: '项目' });
    expect(data.actors.map((a) => a.username)).toEqual(expect.arrayContaining(['owner', 'monitor']));
    expect(data.actors.map((a) => a.username)).not.toContain('stat');
  });

  it('should answer 403 to a member without audit.view', async () => {
    const nurse = await enter('nurse', 'HF-REG');
    const res = await t.api({ method: 'GET', url: '/audit-event/options', token: nurse });
    expect(res.statusCode).toBe(403);
  });
});
