import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskCounts, TaskDetailVO, TaskListItem } from '@registry/shared/contracts/followup';
import { BUILT_IN_ROLES } from '@registry/shared/roles';
import { PERMISSIONS } from '@registry/shared/permissions';
import { auditEvents, followupTasks, formRecords, patients } from '../../db/schema';
import { buildUser, center, hospital, member, project, publishCrf } from '../../../test/factories';
import { createBareTestApp, type TestApp } from '../../../test/test-app';
import { buildAssignment, buildPlan, buildTask, FOLLOWUP_TEST_CRF } from './followup.test-factory';

/**
 * The follow-up worklist and record calls on a hospital's project with the follow-up CRF, with a fixed clock:
 * 2026-03-01T16:30Z is already 2 March in Asia/Shanghai ("today"). Tasks are inserted directly with exact windows.
 */

type Body<T = unknown> = { status: number; message: string; data: T; issues?: { path: string; message: string }[] };
type Page = { records: TaskListItem[]; total: number };

const NOW = new Date('2026-03-01T16:30:00Z');

let t: TestApp;
let owner: string;
let nurse: string;
let qc: string;
let c02Nurse: string;
let tenantId: string;
let hfId: string;
let nurseId: string;
let outsiderId: string;
let c02NurseId: string;
const p: Record<string, string> = {};
const task: Record<string, string> = {};

const call = async <T = unknown>(token: string, method: 'GET' | 'POST', url: string, payload?: object) => {
  const res = await t.api({ method, url: `/followup/${url}`, token, ...(payload !== undefined ? { payload } : {}) });
  return { code: res.statusCode, body: res.json<Body<T>>(), raw: res };
};
const ok = async <T = unknown>(token: string, method: 'GET' | 'POST', url: string, payload?: object) => {
  const res = await call<T>(token, method, url, payload);
  expect(res.code, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};
const page = (token: string, body: Record<string, unknown> = {}) =>
  ok<Page>(token, 'POST', 'task/page', { current: 1, size: 100, ...body });
const ids = (pg: Page) => pg.records.map((r) => r.id).sort();
const detail = (token: string, id: string) => ok<TaskDetailVO>(token, 'GET', `task/detail?id=${id}`);

beforeAll(async () => {
  t = await createBareTestApp();
  t.clock.set(NOW);
  // the project of a hospital's administrator (owner) with the follow-up CRF and centers C01 (default) and C02; a
  // follow-up nurse of all centers, a quality controller without patient.pii (a role of the project), a follow-up
  // nurse of C02 only and an account of the hospital that is not a member
  const h = await hospital(t);
  const hf = await project(t, h.admin);
  hfId = hf.id;
  tenantId = hf.tenantId;
  owner = h.admin.token;
  await publishCrf(t, owner, FOLLOWUP_TEST_CRF);
  const c01 = hf.defaultCenterId;
  const c02 = (await center(t, hf, { code: 'C02' })).id;
  const nurseAccount = await member(t, hf, BUILT_IN_ROLES.followupNurse.code, { centerId: null });
  nurse = nurseAccount.token;
  nurseId = nurseAccount.id;
  const qcRole = await t.api({
    method: 'POST',
    url: '/project-role',
    token: owner,
    payload: {
      code: 'qc',
      name: '质控员',
      permissions: [
        PERMISSIONS.home,
        PERMISSIONS.patientList,
        PERMISSIONS.followupList,
        PERMISSIONS.multicenterView,
        PERMISSIONS.auditView,
      ],
    },
  });
  expect(qcRole.statusCode, qcRole.body).toBe(200);
  qc = (await member(t, hf, 'qc', { centerId: null })).token;
  const c02Account = await member(t, hf, BUILT_IN_ROLES.followupNurse.code, { centerId: c02 });
  c02Nurse = c02Account.token;
  c02NurseId = c02Account.id;
  outsiderId = (await buildUser(t.db, tenantId)).id;

  const add = async (key: string, body: Record<string, unknown>) => {
    const res = await t.api({ method: 'POST', url: '/patient-info', token: owner, payload: body });
    expect(res.statusCode, res.body).toBe(200);
    p[key] = res.json<Body<{ id: string }>>().data.id;
  };
  await add('A', { name: '王小明', hospitalNo: 'FU001', phone: '13900001111', centerId: c01 });
  await add('B', { name: '钱二', hospitalNo: 'FU002', centerId: c01 });
  await add('C', { name: '孙三', hospitalNo: 'FU003', centerId: c02 });
  await add('D', { name: '李四', hospitalNo: 'FU004', centerId: c01 });
  await add('E', { name: '周五', hospitalNo: 'FU005', centerId: c01, birthDate: '1950-01-01' });
  await add('F', { name: '吴六', hospitalNo: 'FU006', centerId: c01 });

  const { planId, visitIds } = await buildPlan(t.db, {
    tenantId,
    projectId: hfId,
    name: '心衰随访',
    visits: [
      { name: '1个月随访', formKeys: ['followup_visit'], contactMethod: 'phone' },
      { name: '3个月随访', formKeys: ['laboratory', 'followup_visit'], contactMethod: 'outpatient' },
      { name: '6个月随访', formKeys: [], contactMethod: 'phone' },
    ],
  });
  const [v1, v2, v3] = visitIds as [string, string, string];
  const assignment: Record<string, string> = {};
  for (const key of ['A', 'B', 'C', 'E', 'F'])
    assignment[key] = await buildAssignment(t.db, { tenantId, projectId: hfId, planId, patientId: p[key] ?? '' });
  const mk = async (
    key: string,
    patient: string,
    visitId: string,
    windowStart: string,
    windowEnd: string,
    extra: Partial<Parameters<typeof buildTask>[1]> = {},
  ) => {
    task[key] = await buildTask(t.db, {
      tenantId,
      projectId: hfId,
      planId,
      visitId,
      assignmentId: assignment[patient] ?? '',
      patientId: p[patient] ?? '',
      windowStart,
      windowEnd,
      ...extra,
    });
  };
  await mk('A1', 'A', v1, '2026-03-02', '2026-03-10', { ownerId: nurseId }); // due: opens today
  await mk('A2', 'A', v2, '2026-03-03', '2026-03-20'); // upcoming: opens tomorrow
  await mk('B1', 'B', v1, '2026-02-20', '2026-03-01'); // overdue: closed yesterday
  await mk('B2', 'B', v2, '2026-02-25', '2026-03-02', { dueDate: '2026-03-02' }); // due: closes today, due today
  await mk('C1', 'C', v1, '2026-02-01', '2026-02-10'); // overdue, at C02
  await mk('C2', 'C', v2, '2026-01-10', '2026-01-20', { status: 'done' }); // done, at C02
  await mk('E1', 'E', v1, '2026-03-01', '2026-03-05'); // due
  await mk('E2', 'E', v3, '2026-04-01', '2026-04-10'); // upcoming
  await mk('F1', 'F', v3, '2026-03-10', '2026-03-20'); // upcoming (F is on track)
});
afterAll(async () => {
  await t.close();
});

describe('POST followup/task/page and counts — states on the Asia/Shanghai date', () => {
  it('should compute due, upcoming, overdue and done on window edges with today as 2 March', async () => {
    const byState = async (state: string) => ids(await page(owner, { state }));
    expect(await byState('due')).toEqual([task.A1, task.B2, task.E1].sort());
    expect(await byState('upcoming')).toEqual([task.A2, task.E2, task.F1].sort());
    expect(await byState('overdue')).toEqual([task.B1, task.C1].sort());
    expect(await byState('done')).toEqual([task.C2]);
    const counts = await ok<TaskCounts>(owner, 'POST', 'task/counts', {});
    expect(counts).toEqual({ due: 3, upcoming: 3, overdue: 2, done: 1, lost: 0, dueToday: 2 });
  });

  it('should still be 1 March in Shanghai at 15:59Z (a window ending 1 March is due, one opening 2 March upcoming)', async () => {
    t.clock.set(new Date('2026-03-01T15:59:00Z'));
    try {
      const due = await page(owner, { state: 'due' });
      expect(ids(due)).toContain(task.B1);
      expect(ids(due)).not.toContain(task.A1);
      expect(ids(await page(owner, { state: 'upcoming' }))).toContain(task.A1);
    } finally {
      t.clock.set(NOW);
    }
  });

  it('should order due tasks by window end (most urgent first) and give each row its state', async () => {
    const due = await page(owner, { state: 'due' });
    expect(due.records.map((r) => r.id)).toEqual([task.B2, task.E1, task.A1]);
    const all = await page(owner);
    expect(all.total).toBe(9);
    expect(all.records.at(-1)?.id).toBe(task.C2); // closed tasks after open ones
    const a1 = all.records.find((r) => r.id === task.A1);
    expect(a1).toMatchObject({
      state: 'due',
      status: 'open',
      patientName: '王小明',
      phone: '13900001111',
      planName: '心衰随访',
      visitName: '1个月随访',
      contactMethod: 'phone',
      ownerName: expect.any(String),
      attempts: 0,
      lastOutcome: null,
    });
  });

  it('should filter by owner (me, none, an id), center, visit, patient, keyword and due dates', async () => {
    expect(ids(await page(nurse, { owner: 'me' }))).toEqual([task.A1]);
    expect(ids(await page(owner, { owner: nurseId }))).toEqual([task.A1]);
    expect((await page(owner, { owner: 'none' })).total).toBe(8);
    expect(ids(await page(owner, { patientId: p.B }))).toEqual([task.B1, task.B2].sort());
    expect(ids(await page(owner, { keyword: 'FU003' }))).toEqual([task.C1, task.C2].sort());
    expect(ids(await page(owner, { keyword: '王小明' }))).toEqual([task.A1, task.A2].sort());
    expect(ids(await page(owner, { dueFrom: '2026-03-02', dueTo: '2026-03-03' }))).toEqual(
      [task.A1, task.A2, task.B2].sort(),
    );
    const counts = await ok<TaskCounts>(owner, 'POST', 'task/counts', { keyword: 'FU002' });
    expect(counts).toEqual({ due: 1, upcoming: 0, overdue: 1, done: 0, lost: 0, dueToday: 1 });
  });

  it('should audit the unmasked identity data a patient.pii holder reads, and nothing for a masked read', async () => {
    const piiReads = async () =>
      (await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'patient.pii_read'))).filter(
        (e) => (e.newValue as { via?: string } | null)?.via?.startsWith('followup/') === true,
      ).length;
    const before = await piiReads();
    await page(nurse, { patientId: p.B });
    await detail(nurse, task.B1 ?? '');
    await ok(nurse, 'GET', `patient/timeline?patientId=${p.B}`);
    expect(await piiReads()).toBe(before + 3);
    await page(qc, { patientId: p.B });
    await detail(qc, task.B1 ?? '');
    expect(await piiReads()).toBe(before + 3);
  });

  it('should mask name and phone without patient.pii and not search names then', async () => {
    const rows = await page(qc, { patientId: p.A });
    expect(rows.records[0]).toMatchObject({ patientName: '王**', phone: '139****1111' });
    expect((await page(qc, { keyword: '王小明' })).total).toBe(0);
    // nor the masked hospital number: a partial match would spell it out
    expect((await page(owner, { keyword: 'FU00' })).total).toBeGreaterThan(0);
    expect((await page(qc, { keyword: 'FU00' })).total).toBe(0);
    expect((await ok<TaskCounts>(qc, 'POST', 'task/counts', { keyword: 'FU002' })).overdue).toBe(0);
  });

  it('should mask the birth date on the record page without patient.pii, as the patient list does', async () => {
    expect((await detail(qc, task.E1 ?? '')).patient).toMatchObject({ name: '周*', birthDate: '1950-**-**' });
    expect((await detail(owner, task.E1 ?? '')).patient).toMatchObject({ name: '周五', birthDate: '1950-01-01' });
  });

  it("should show a center-scoped member only their center's tasks and answer 404 for the others", async () => {
    expect(ids(await page(c02Nurse))).toEqual([task.C1, task.C2].sort());
    const counts = await ok<TaskCounts>(c02Nurse, 'POST', 'task/counts', {});
    expect(counts).toMatchObject({ overdue: 1, done: 1, due: 0 });
    const res = await call(c02Nurse, 'GET', `task/detail?id=${task.A1}`);
    expect([res.code, res.body.message]).toEqual([404, '随访任务不存在']);
    const contact = await call(c02Nurse, 'POST', 'task/contact', {
      taskId: task.A1,
      contactedAt: NOW.toISOString(),
      method: 'phone',
      outcome: 'reached',
    });
    expect(contact.code).toBe(404);
    expect((await call(c02Nurse, 'GET', `patient/timeline?patientId=${p.A}`)).code).toBe(404);
  });
});

describe('GET followup/summary', () => {
  it("should count today's, this week's and overdue tasks, the caller's own and the completion rate", async () => {
    expect(await ok(nurse, 'GET', 'summary')).toEqual({
      dueToday: 2,
      due: 3,
      dueThisWeek: 3,
      overdue: 2,
      mineDue: 1,
      mineOverdue: 0,
      completionRate: 1 / 3,
    });
  });
});

describe('POST patient-info/page followupStatus', () => {
  const listed = async (followupStatus: string) => {
    const res = await t.api({
      method: 'POST',
      url: '/patient-info/page',
      token: owner,
      payload: { current: 1, size: 50, keyword: 'FU00', followupStatus },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res
      .json<Body<{ records: { hospitalNo: string }[] }>>()
      .data.records.map((r) => r.hospitalNo)
      .sort();
  };

  it('should filter overdue, due, on track, lost and without plan', async () => {
    expect(await listed('overdue')).toEqual(['FU002', 'FU003']);
    expect(await listed('due')).toEqual(['FU001', 'FU005']);
    expect(await listed('on_track')).toEqual(['FU006']);
    expect(await listed('none')).toEqual(['FU004']);
    expect(await listed('lost')).toEqual([]);
    const bad = await t.api({
      method: 'POST',
      url: '/patient-info/page',
      token: owner,
      payload: { current: 1, size: 50, followupStatus: 'x' },
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('POST followup/task/assign', () => {
  it('should set the owner of open tasks, skip closed ones and audit each', async () => {
    const data = await ok<{ count: number }>(owner, 'POST', 'task/assign', {
      taskIds: [task.A2, task.C2],
      ownerId: nurseId,
    });
    expect(data.count).toBe(1);
    const [row] = await t.db
      .select()
      .from(followupTasks)
      .where(eq(followupTasks.id, task.A2 ?? ''));
    expect(row?.ownerId).toBe(nurseId);
    expect(row?.rowVersion).toBe(2);
    const events = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'followup_task.assign'), eq(auditEvents.entityId, task.A2 ?? '')));
    expect(events).toHaveLength(1);
    // back to unassigned
    await ok(owner, 'POST', 'task/assign', { taskIds: [task.A2], ownerId: null });
  });

  it('should refuse an owner who is not a member (400), an invisible task (404) and a caller without followup.edit (403)', async () => {
    const res = await call(owner, 'POST', 'task/assign', { taskIds: [task.A2], ownerId: outsiderId });
    expect([res.code, res.body.message, res.body.issues?.[0]?.path]).toEqual([400, '负责人须为项目成员', 'ownerId']);
    const otherCenter = await call(owner, 'POST', 'task/assign', { taskIds: [task.A2], ownerId: c02NurseId });
    expect([otherCenter.code, otherCenter.body.message]).toEqual([400, '负责人只能负责其所在中心的患者']);
    expect(
      (await ok<{ count: number }>(owner, 'POST', 'task/assign', { taskIds: [task.C1], ownerId: c02NurseId })).count,
    ).toBe(1);
    const hidden = await call(c02Nurse, 'POST', 'task/assign', { taskIds: [task.A2, task.C1], ownerId: null });
    expect(hidden.code).toBe(404);
    expect((await call(qc, 'POST', 'task/assign', { taskIds: [task.A2], ownerId: null })).code).toBe(403);
  });
});

describe('POST followup/task/export', () => {
  const open = async (body: Buffer) => {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(body as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    if (!sheet) throw new Error('no sheet');
    const rows: string[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1).map((v) => String(v ?? ''))));
    return rows;
  };

  it('should answer the filtered worklist as an xlsx file and audit the export', async () => {
    const res = await t.api({
      method: 'POST',
      url: '/followup/task/export',
      token: owner,
      payload: { state: 'overdue' },
    });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-disposition'])).toContain(encodeURIComponent('随访列表-2026-03-02.xlsx'));
    const rows = await open(res.rawPayload);
    expect(rows[0]?.slice(0, 3)).toEqual(['患者编号', '姓名', '性别']);
    expect(rows).toHaveLength(3);
    expect(rows.map((r) => r[1])).toEqual(expect.arrayContaining(['钱二', '孙三']));
    expect(rows[1]?.[11]).toBe('已超窗');
    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'followup_task.export'));
    expect(event?.newValue).toMatchObject({ rows: 2, masked: false });
  });

  it('should keep a searched name out of the audit trail, saying only that a keyword was used', async () => {
    const res = await t.api({
      method: 'POST',
      url: '/followup/task/export',
      token: owner,
      payload: { keyword: '钱二' },
    });
    expect(res.statusCode).toBe(200);
    expect((await open(res.rawPayload)).slice(1).map((r) => r[1])).toContain('钱二');
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'followup_task.export'));
    const last = events.at(-1);
    expect(JSON.stringify(last?.newValue)).not.toContain('钱二');
    expect(last?.newValue).toMatchObject({ filter: { keyword: '（已隐去）' } });
  });

  it('should mask names and phones without patient.pii', async () => {
    const res = await t.api({ method: 'POST', url: '/followup/task/export', token: qc, payload: { patientId: p.A } });
    const rows = await open(res.rawPayload);
    expect(rows.slice(1).map((r) => [r[1], r[3]])).toEqual([
      ['王**', '139****1111'],
      ['王**', '139****1111'],
    ]);
  });
});

describe('POST followup/task/contact', () => {
  it('should refuse a contact time in the future, naming the field', async () => {
    const res = await call(owner, 'POST', 'task/contact', {
      taskId: task.A1,
      contactedAt: new Date(NOW.getTime() + 3_600_000).toISOString(),
      method: 'phone',
      outcome: 'no_answer',
    });
    expect([res.code, res.body.message, res.body.issues?.[0]?.path]).toEqual([
      400,
      '联系时间不能晚于当前时间',
      'contactedAt',
    ]);
    const missing = await call(owner, 'POST', 'task/contact', { taskId: task.A1, method: 'phone' });
    expect(missing.code).toBe(400);
  });

  it('should record an attempt, bump the task and show it on the list row and the detail', async () => {
    const contact = await ok<{ id: string; outcome: string }>(nurse, 'POST', 'task/contact', {
      taskId: task.A1,
      contactedAt: new Date(NOW.getTime() - 600_000).toISOString(),
      method: 'phone',
      outcome: 'no_answer',
      note: '无人接听',
    });
    expect(contact.outcome).toBe('no_answer');
    const row = (await page(owner, { patientId: p.A })).records.find((r) => r.id === task.A1);
    expect(row).toMatchObject({ attempts: 1, lastOutcome: 'no_answer', rowVersion: 2 });
    const d = await detail(nurse, task.A1 ?? '');
    expect(d.contacts).toEqual([expect.objectContaining({ note: '无人接听', createdByName: expect.any(String) })]);
  });
});

describe('POST followup/task/form/save', () => {
  let versionId: string;

  it('should answer the visit forms and the published version on the detail', async () => {
    const d = await detail(nurse, task.A1 ?? '');
    versionId = d.versionId ?? '';
    expect(versionId).not.toBe('');
    expect(d.forms).toEqual([{ formKey: 'followup_visit', title: '随访记录', record: null }]);
    expect(d.plan).toEqual(expect.objectContaining({ name: '心衰随访', anchorLabel: '入组日期' }));
    expect(d.visit).toMatchObject({ name: '1个月随访', formKeys: ['followup_visit'] });
    expect(d.otherTasks.map((o) => o.id)).toEqual([task.A2]);
    expect(d.patient).toMatchObject({ name: '王小明', phone: '13900001111', status: 'screening' });
  });

  it('should create a new instance of a repeating form tagged with the task, and save it again', async () => {
    const saved = await ok<{ record: { id: string; instance: number; rowVersion: number; status: string } }>(
      nurse,
      'POST',
      'task/form/save',
      { taskId: task.A1, formKey: 'followup_visit', versionId, data: { fu_date: '2026-03-01' }, rowVersion: null },
    );
    expect(saved.record).toMatchObject({ status: 'draft', rowVersion: 1 });
    const [row] = await t.db.select().from(formRecords).where(eq(formRecords.id, saved.record.id));
    expect(row?.followupTaskId).toBe(task.A1);
    const again = await ok<{ record: { id: string; rowVersion: number } }>(nurse, 'POST', 'task/form/save', {
      taskId: task.A1,
      formKey: 'followup_visit',
      versionId,
      data: { fu_date: '2026-03-01', vital_status: '1' },
      rowVersion: 1,
    });
    expect(again.record).toMatchObject({ id: saved.record.id, rowVersion: 2 });
    const stale = await call(nurse, 'POST', 'task/form/save', {
      taskId: task.A1,
      formKey: 'followup_visit',
      versionId,
      data: { fu_date: '2026-02-28', vital_status: '1' },
      rowVersion: 1,
    });
    expect(stale.code).toBe(409);
    // A second task of the same patient gets its own instance
    const second = await ok<{ record: { id: string; instance: number } }>(nurse, 'POST', 'task/form/save', {
      taskId: task.A2,
      formKey: 'followup_visit',
      versionId,
      data: { fu_date: '2026-03-02', vital_status: '1' },
      rowVersion: null,
      submit: true,
    });
    expect(second.record.id).not.toBe(saved.record.id);
    expect(second.record.instance).toBe(saved.record.instance + 1);
    const [tagged] = await t.db.select().from(formRecords).where(eq(formRecords.id, second.record.id));
    expect(tagged?.followupTaskId).toBe(task.A2);
  });

  it("should save a non-repeating form as the patient's one record, tagged", async () => {
    const saved = await ok<{ record: { id: string; instance: number; status: string } }>(
      nurse,
      'POST',
      'task/form/save',
      {
        taskId: task.A2,
        formKey: 'laboratory',
        versionId,
        data: { lab_date: '2026-03-01', creatinine: 80 },
        rowVersion: null,
        submit: true,
      },
    );
    expect(saved.record).toMatchObject({ instance: 1, status: 'submitted' });
    const [row] = await t.db.select().from(formRecords).where(eq(formRecords.id, saved.record.id));
    expect(row?.followupTaskId).toBe(task.A2);
  });

  it('should refuse another form (400), a hard error (400 with the path) and an unknown version (404)', async () => {
    const other = await call(nurse, 'POST', 'task/form/save', {
      taskId: task.A1,
      formKey: 'laboratory',
      versionId,
      data: {},
      rowVersion: null,
    });
    expect([other.code, other.body.message]).toEqual([400, '该表单不属于本次访视']);
    const future = await call(nurse, 'POST', 'task/form/save', {
      taskId: task.A1,
      formKey: 'followup_visit',
      versionId,
      data: { fu_date: '2026-03-09', vital_status: '1' },
      rowVersion: 2,
    });
    expect(future.code).toBe(400);
    expect(future.body.issues?.[0]?.path).toBe('fu_date');
    const version = await call(nurse, 'POST', 'task/form/save', {
      taskId: task.A1,
      formKey: 'followup_visit',
      versionId: '00000000-0000-4000-8000-000000000000',
      data: {},
      rowVersion: null,
    });
    expect([version.code, version.body.message]).toEqual([404, '表单版本不存在']);
  });
});

describe('POST followup/task/complete and reopen', () => {
  const rowVersion = async (id: string) =>
    (await t.db.select().from(followupTasks).where(eq(followupTasks.id, id)))[0]?.rowVersion ?? 0;

  it('should refuse while a form is not submitted, then without a reached contact, then on a stale row version', async () => {
    const id = task.A1 ?? '';
    const pending = await call(nurse, 'POST', 'task/complete', { taskId: id, rowVersion: await rowVersion(id) });
    expect([pending.code, pending.body.message]).toEqual([409, '请先提交本次访视的表单：随访记录']);
    const d = await detail(nurse, id);
    const record = d.forms[0]?.record;
    await ok(nurse, 'POST', 'task/form/save', {
      taskId: id,
      formKey: 'followup_visit',
      versionId: d.versionId,
      data: record?.data,
      rowVersion: record?.rowVersion,
      submit: true,
    });
    const noContact = await call(nurse, 'POST', 'task/complete', { taskId: id, rowVersion: await rowVersion(id) });
    expect([noContact.code, noContact.body.message]).toEqual([409, '请先记录一次成功联系']);
    const before = await rowVersion(id);
    await ok(nurse, 'POST', 'task/contact', {
      taskId: id,
      contactedAt: NOW.toISOString(),
      method: 'phone',
      outcome: 'reached',
    });
    const stale = await call(nurse, 'POST', 'task/complete', { taskId: id, rowVersion: before });
    expect([stale.code, stale.body.message]).toEqual([409, '随访任务已被他人修改，请刷新后重试']);
  });

  it('should close the task as done, audited; a closed task refuses contacts and saves', async () => {
    const id = task.A1 ?? '';
    const done = await ok<TaskListItem>(nurse, 'POST', 'task/complete', {
      taskId: id,
      rowVersion: await rowVersion(id),
    });
    expect(done).toMatchObject({ status: 'done', state: 'done', closedAt: NOW.toISOString() });
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'followup_task.complete'), eq(auditEvents.entityId, id)));
    expect(event).toBeDefined();
    const contact = await call(nurse, 'POST', 'task/contact', {
      taskId: id,
      contactedAt: NOW.toISOString(),
      method: 'phone',
      outcome: 'reached',
    });
    expect([contact.code, contact.body.message]).toEqual([409, '随访任务已关闭']);
  });

  it('should complete an outpatient visit without a contact once its forms are submitted', async () => {
    const id = task.A2 ?? '';
    const done = await ok<TaskListItem>(nurse, 'POST', 'task/complete', {
      taskId: id,
      rowVersion: await rowVersion(id),
    });
    expect(done.status).toBe('done');
  });

  it('should reopen a done task with a reason, audited', async () => {
    const id = task.A1 ?? '';
    const res = await call(nurse, 'POST', 'task/reopen', { taskId: id, reason: '' });
    expect(res.code).toBe(400);
    const reopened = await ok<TaskListItem>(nurse, 'POST', 'task/reopen', { taskId: id, reason: '表单需补充' });
    expect(reopened).toMatchObject({ status: 'open', state: 'due', closedAt: null });
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'followup_task.reopen'), eq(auditEvents.entityId, id)));
    expect(event?.reason).toBe('表单需补充');
    const again = await call(nurse, 'POST', 'task/reopen', { taskId: id, reason: '再次' });
    expect([again.code, again.body.message]).toEqual([409, '只有已完成或失访的随访任务可以重新打开']);
  });
});

describe('POST followup/task/lost', () => {
  it('should mark one task lost, then the whole patient lost with all open tasks', async () => {
    const one = await ok<TaskListItem>(nurse, 'POST', 'task/lost', { taskId: task.B1, reason: '电话停机' });
    expect(one).toMatchObject({ status: 'lost', closedReason: '电话停机' });
    const whole = await ok<TaskListItem>(nurse, 'POST', 'task/lost', {
      taskId: task.B2,
      reason: '搬迁外地',
      wholePatient: true,
    });
    expect(whole.status).toBe('lost');
    const [patient] = await t.db
      .select()
      .from(patients)
      .where(eq(patients.id, p.B ?? ''));
    expect(patient?.followupLostReason).toBe('搬迁外地');
    expect(patient?.followupLostAt?.toISOString()).toBe(NOW.toISOString());
    const d = await detail(nurse, task.B2 ?? '');
    expect(d.patient).toMatchObject({ lostReason: '搬迁外地', lostAt: NOW.toISOString() });
    const res = await t.api({
      method: 'POST',
      url: '/patient-info/page',
      token: owner,
      payload: { current: 1, size: 50, keyword: 'FU00', followupStatus: 'lost' },
    });
    expect(res.json<Body<{ records: { hospitalNo: string }[] }>>().data.records.map((r) => r.hospitalNo)).toEqual([
      'FU002',
    ]);
    const counts = await ok<TaskCounts>(owner, 'POST', 'task/counts', { keyword: 'FU002' });
    expect(counts.lost).toBe(2);
  });
});

describe('POST followup/patient/death', () => {
  it('should refuse a date in the future or before birth, naming the field', async () => {
    const future = await call(nurse, 'POST', 'patient/death', {
      patientId: p.E,
      deathDate: '2026-03-03',
      cause: '心衰',
    });
    expect([future.code, future.body.message, future.body.issues?.[0]?.path]).toEqual([
      400,
      '死亡日期不能晚于今天',
      'deathDate',
    ]);
    const early = await call(nurse, 'POST', 'patient/death', {
      patientId: p.E,
      deathDate: '1949-12-31',
      cause: '心衰',
    });
    expect([early.code, early.body.message]).toEqual([400, '死亡日期不能早于出生日期']);
    const hidden = await call(c02Nurse, 'POST', 'patient/death', {
      patientId: p.E,
      deathDate: '2026-03-01',
      cause: '心衰',
    });
    expect(hidden.code).toBe(404);
  });

  it('should set the patient deceased (today in Shanghai is allowed) and cancel their open tasks', async () => {
    const data = await ok<{ count: number }>(nurse, 'POST', 'patient/death', {
      patientId: p.E,
      deathDate: '2026-03-02',
      cause: '心源性猝死',
    });
    expect(data.count).toBe(2);
    const [patient] = await t.db
      .select()
      .from(patients)
      .where(eq(patients.id, p.E ?? ''));
    expect(patient).toMatchObject({ status: 'deceased', deathDate: '2026-03-02', deathCause: '心源性猝死' });
    const rows = await t.db
      .select()
      .from(followupTasks)
      .where(eq(followupTasks.patientId, p.E ?? ''));
    expect(rows.map((r) => [r.status, r.closedReason])).toEqual([
      ['cancelled', '患者已死亡'],
      ['cancelled', '患者已死亡'],
    ]);
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'patient.death'));
    expect(events).toHaveLength(1);
  });
});

describe('GET followup/patient/timeline', () => {
  it("should answer the patient's tasks by due date with their contacts", async () => {
    const items = await ok<(TaskListItem & { contacts: { outcome: string }[] })[]>(
      nurse,
      'GET',
      `patient/timeline?patientId=${p.A}`,
    );
    expect(items.map((i) => i.id)).toEqual([task.A1, task.A2]);
    expect(items[0]?.contacts.map((c) => c.outcome)).toEqual(['reached', 'no_answer']);
    expect(items[1]?.contacts).toEqual([]);
    const missing = await call(nurse, 'GET', 'patient/timeline?patientId=nope');
    expect(missing.code).toBe(404);
  });
});
