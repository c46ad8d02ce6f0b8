import ExcelJS from 'exceljs';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssignmentVO, PlanApplyResponse, PlanInput, PlanVO } from '@registry/shared/contracts/followup';
import { auditEvents, followupAssignments, followupTasks, patients } from '../../db/schema';
import { buildUser, center, hospital, member, project, publishCrf, type TestProject } from '../../../test/factories';
import { createBareTestApp, type TestApp } from '../../../test/test-app';
import { buildCohort, FOLLOWUP_TEST_CRF, type CohortPatient } from './followup.test-factory';

type Body<T = unknown> = { status: number; message: string; data: T; issues?: { path: string; message: string }[] };

let t: TestApp;
let hf: TestProject;
let owner: string;
let nurse: string;
let lead2: string;
let hfId: string;
let hfpefId: string;
/** The cohort's patients (followup.test-factory.ts): 1–5 at C01, 6–8 at C02; 3 and 7 in HFpEF; 4 deceased. */
let C: Record<string, CohortPatient>;
const P: Record<string, string> = {};
const ENROL: Record<string, string> = {};

const call = (token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
  t.api({ method, url, token, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });

async function okData<T>(res: Awaited<ReturnType<typeof call>>): Promise<T> {
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Body<T>>().data;
}

const MONTHLY: PlanInput['visits'] = [
  { name: '出院后1个月', offset: 1, offsetUnit: 'month', windowBefore: 7, windowAfter: 7, contactMethod: 'phone' },
  { name: '出院后3个月', offset: 3, offsetUnit: 'month', windowBefore: 14, windowAfter: 14, contactMethod: 'phone' },
];

const relative = (name: string, extra: Partial<PlanInput> = {}): PlanInput => ({
  name,
  kind: 'relative',
  anchor: { type: 'enrol' },
  visits: MONTHLY,
  assignMode: 'auto',
  rule: { subProjectIds: [] },
  ...extra,
});

const createPlan = async (input: PlanInput) => {
  t.clock.advanceMinutes(1); // newest first
  return okData<PlanVO>(await call(owner, 'POST', '/followup/plan', input));
};
const activate = async (id: string) =>
  okData<PlanApplyResponse>(await call(owner, 'POST', '/followup/plan/activate', { id }));
const detail = async (id: string) => okData<PlanVO>(await call(owner, 'GET', `/followup/plan/detail?id=${id}`));

async function tasksOf(planId: string, patientId?: string) {
  return t.db
    .select()
    .from(followupTasks)
    .where(and(eq(followupTasks.planId, planId), patientId ? eq(followupTasks.patientId, patientId) : undefined))
    .orderBy(asc(followupTasks.dueDate));
}

async function patchEnrol(patientId: string, enrolDate: string) {
  const [row] = await t.db.select().from(patients).where(eq(patients.id, patientId));
  return call(owner, 'PUT', '/patient-info', { id: patientId, rowVersion: row?.rowVersion, enrolDate });
}

const auditActions = async (entityId: string) =>
  (await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, entityId)).orderBy(asc(auditEvents.id))).map(
    (e) => e.action,
  );

beforeAll(async () => {
  t = await createBareTestApp();
  // a hospital's project (its administrator the owner) with the follow-up CRF, centers C01 (default) and C02, the
  // sub-project HFpEF and the eight cohort patients; a follow-up nurse and a center lead of C02 (followup.list,
  // center-scoped)
  const h = await hospital(t);
  hf = await project(t, h.admin);
  hfId = hf.id;
  owner = h.admin.token;
  await publishCrf(t, owner, FOLLOWUP_TEST_CRF);
  const c02 = await center(t, hf, { code: 'C02' });
  hfpefId = (await project(t, h.admin, { name: '射血分数保留型心衰亚组', parentId: hfId })).id;
  C = await buildCohort(t, hf, { secondCenterId: c02.id, subProjectId: hfpefId });
  for (const [n, patient] of Object.entries(C)) {
    P[n] = patient.id;
    ENROL[n] = patient.enrolDate;
  }
  nurse = (await member(t, hf, 'followup_nurse', { centerId: null })).token;
  lead2 = (await member(t, hf, 'center_lead', { centerId: c02.id, user: { name: '二院负责人' } })).token;
});
afterAll(async () => {
  await t?.close();
});

describe('POST followup/plan (validation)', () => {
  const issuesOf = async (input: unknown) => {
    const res = await call(owner, 'POST', '/followup/plan', input);
    expect(res.statusCode, res.body).toBe(400);
    return res.json<Body>();
  };

  it('should name the visit field when a relative plan lacks an anchor or an offset', async () => {
    const body = await issuesOf({
      ...relative('缺基准'),
      anchor: null,
      visits: [MONTHLY[0], { ...MONTHLY[1], offset: null, offsetUnit: null }],
    });
    expect(body.issues).toEqual(
      expect.arrayContaining([
        { path: 'anchor', message: '相对随访计划请选择基准日期' },
        { path: 'visits.1.offset', message: '请输入时间间隔' },
        { path: 'visits.1.offsetUnit', message: '请选择时间单位' },
      ]),
    );
  });

  it('should refuse an anchor that is not a date field of a non-repeating published form, naming it', async () => {
    const notDate = await issuesOf(
      relative('非日期', { anchor: { type: 'field', formKey: 'echocardiography', fieldKey: 'lvef' } }),
    );
    expect(notDate.message).toContain('不是日期字段');
    expect(notDate.message).toContain('超声心动图');
    expect(notDate.issues?.[0]?.path).toBe('anchor.fieldKey');
    const repeating = await issuesOf(
      relative('重复表单', { anchor: { type: 'field', formKey: 'followup_visit', fieldKey: 'fu_date' } }),
    );
    expect(repeating.message).toContain('重复表单');
    const missing = await issuesOf(relative('不存在', { anchor: { type: 'field', formKey: 'nope', fieldKey: 'x' } }));
    expect(missing.message).toBe('基准日期字段「nope.x」不在已发布的数据库中');
  });

  it('should check visit forms, unique visit names, the fixed dates, the rule field and the default owner', async () => {
    // an account of the hospital that is not a member of the project
    const stranger = await buildUser(t.db, hf.tenantId);
    const body = await issuesOf({
      ...relative('多处错误'),
      visits: [
        { ...MONTHLY[0], formKeys: ['followup_visit', 'nope'] },
        { ...MONTHLY[1], name: '出院后1个月' },
      ],
      rule: { subProjectIds: [hfId], field: { formKey: 'echocardiography', fieldKey: 'nyha', op: 'eq', values: [] } },
      defaultOwnerId: stranger.id,
    });
    expect(body.issues).toEqual(
      expect.arrayContaining([
        { path: 'visits.0.formKeys.1', message: '表单「nope」不在已发布的数据库中' },
        { path: 'visits.1.name', message: '访视名称重复：出院后1个月' },
        { path: 'rule.subProjectIds.0', message: '子项目不存在' },
        { path: 'rule.field.values', message: '请选择规则取值' },
        { path: 'defaultOwnerId', message: '默认负责人须为项目成员' },
      ]),
    );
    const fixed = await issuesOf({
      name: '固定缺日期',
      kind: 'fixed',
      visits: [{ name: '年度随访', windowBefore: 0, windowAfter: 7, contactMethod: 'phone' }],
      assignMode: 'manual',
    });
    expect(fixed.issues).toEqual([{ path: 'visits.0.fixedDate', message: '请选择随访日期，或按周期生成访视' }]);
  });

  it('should answer 409 on a name taken in the project', async () => {
    await createPlan(relative('重名计划', { assignMode: 'manual', rule: null }));
    const res = await call(owner, 'POST', '/followup/plan', relative('重名计划'));
    expect(res.statusCode).toBe(409);
    expect(res.json<Body>().message).toBe('随访计划名称已存在');
  });

  it('should refuse the call without followup.config', async () => {
    const res = await call(nurse, 'POST', '/followup/plan', relative('护士计划'));
    expect(res.statusCode).toBe(403);
  });
});

describe('fixed periodic plans', () => {
  it('should generate the visits 第k次随访 from the period, clamping month ends', async () => {
    const plan = await createPlan({
      name: '季度随访',
      kind: 'fixed',
      period: {
        startDate: '2026-01-31',
        everyMonths: 1,
        times: 3,
        windowBefore: 3,
        windowAfter: 10,
        formKeys: ['followup_visit'],
        contactMethod: 'outpatient',
      },
      assignMode: 'manual',
    });
    expect(plan.status).toBe('draft');
    expect(plan.visits.map((v) => [v.name, v.fixedDate])).toEqual([
      ['第1次随访', '2026-01-31'],
      ['第2次随访', '2026-02-28'],
      ['第3次随访', '2026-03-31'],
    ]);
    expect(plan.anchor).toBeNull();
    // manual: a hand-picked patient gets the three tasks
    await activate(plan.id);
    const added = await okData<{ assigned: number; tasksCreated: number; skipped: number }>(
      await call(owner, 'POST', '/followup/assignment/add', { planId: plan.id, patientIds: [P[1], P[4]] }),
    );
    expect(added).toMatchObject({ assigned: 1, tasksCreated: 3, skipped: 1 }); // 4 is deceased
  });
});

describe('activation and anchors', () => {
  let plan: PlanVO;

  it('should assign every living patient and create their tasks at the right dates', async () => {
    plan = await createPlan(relative('出院随访'));
    const result = await activate(plan.id);
    expect(result).toEqual({ assigned: 7, tasksCreated: 14, waitingForAnchor: 0, stopped: 0 });
    const tasks = await tasksOf(plan.id, P[1]);
    expect(ENROL[1]).toBe('2026-01-08');
    expect(tasks.map((x) => [x.dueDate, x.windowStart, x.windowEnd, x.status])).toEqual([
      ['2026-02-08', '2026-02-01', '2026-02-15', 'open'],
      ['2026-04-08', '2026-03-25', '2026-04-22', 'open'],
    ]);
    expect(await tasksOf(plan.id, P[4])).toEqual([]); // deceased
    const vo = await detail(plan.id);
    expect(vo).toMatchObject({ status: 'active', patientCount: 7, openTaskCount: 14, anchorLabel: '入组日期' });
    const again = await call(owner, 'POST', '/followup/plan/activate', { id: plan.id });
    expect(again.statusCode).toBe(409);
    // apply again: nothing new
    expect(await okData(await call(owner, 'POST', '/followup/plan/apply', { id: plan.id }))).toEqual({
      assigned: 0,
      tasksCreated: 0,
      waitingForAnchor: 0,
      stopped: 0,
    });
  });

  it('should move open tasks with a new enrolment date and leave done ones', async () => {
    const [first] = await tasksOf(plan.id, P[2]);
    await t.db
      .update(followupTasks)
      .set({ status: 'done', closedAt: new Date() })
      .where(eq(followupTasks.id, first?.id ?? ''));
    const res = await patchEnrol(P[2] ?? '', '2026-05-31');
    expect(res.statusCode, res.body).toBe(200);
    const tasks = await tasksOf(plan.id, P[2]);
    expect(tasks.find((x) => x.id === first?.id)).toMatchObject({ status: 'done', dueDate: first?.dueDate });
    expect(tasks.find((x) => x.id !== first?.id)).toMatchObject({
      status: 'open',
      dueDate: '2026-08-31',
      windowStart: '2026-08-17',
      windowEnd: '2026-09-14',
    });
    const [assignment] = await t.db
      .select()
      .from(followupAssignments)
      .where(and(eq(followupAssignments.planId, plan.id), eq(followupAssignments.patientId, P[2] ?? '')));
    expect(assignment?.anchorDate).toBe('2026-05-31');
    expect(await auditActions(P[2] ?? '')).toContain('followup.sync');
  });

  it('should create the tasks of a new patient matching the rule in the same transaction', async () => {
    const res = await call(owner, 'POST', '/patient-info', {
      name: '新病人',
      gender: '1',
      enrolDate: '2026-06-15',
      status: 'enrolled',
      centerId: hf.defaultCenterId,
    });
    const created = await okData<{ id: string }>(res);
    expect((await tasksOf(plan.id, created.id)).map((x) => x.dueDate)).toEqual(['2026-07-15', '2026-09-15']);
  });

  it('should create the tasks of patients added by an Excel import, in the import transaction', async () => {
    const res = await t.api({ method: 'GET', url: '/patient-import/template', token: owner });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ExcelJS.Buffer);
    const sheet = book.getWorksheet('患者数据');
    if (!sheet) throw new Error('no sheet');
    const letters = new Map<string, string>();
    sheet.getRow(2).eachCell((cell, n) => letters.set(String(cell.value), sheet.getColumn(n).letter));
    const cells = { 'patient.name': '导入病人', 'patient.centerCode': 'C01', 'patient.enrolDate': '2026-04-30' };
    for (const [key, value] of Object.entries(cells)) sheet.getCell(`${letters.get(key) ?? 'A'}3`).value = value;
    const data = Buffer.from(await book.xlsx.writeBuffer());
    const boundary = '----fuimport';
    const committed = await t.api({
      method: 'POST',
      url: '/patient-import/commit',
      token: owner,
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        ),
        data,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(committed.statusCode, committed.body).toBe(200);
    const [imported] = await t.db.select().from(patients).where(eq(patients.name, '导入病人'));
    expect((await tasksOf(plan.id, imported?.id)).map((x) => x.dueDate)).toEqual(['2026-05-30', '2026-07-30']);
  });

  it('should wait for a field anchor and follow the record that holds it', async () => {
    const fieldPlan = await createPlan(
      relative('超声后随访', {
        anchor: { type: 'field', formKey: 'echocardiography', fieldKey: 'echo_date' },
        assignMode: 'manual',
        rule: null,
        visits: [
          { name: '超声后2周', offset: 2, offsetUnit: 'week', windowBefore: 3, windowAfter: 3, contactMethod: 'phone' },
        ],
      }),
    );
    expect(fieldPlan.anchorLabel).toBe('超声心动图 · 检查日期');
    await activate(fieldPlan.id);
    const added = await okData<{ assigned: number; tasksCreated: number; waitingForAnchor: number }>(
      await call(owner, 'POST', '/followup/assignment/add', { planId: fieldPlan.id, patientIds: [P[5]] }),
    );
    expect(added).toMatchObject({ assigned: 1, tasksCreated: 0, waitingForAnchor: 1 });
    const save = async (rowVersion: number, echoDate: string) =>
      okData<{ rowVersion: number }>(
        await call(owner, 'POST', '/form-record/save', {
          patientId: P[5],
          formKey: 'echocardiography',
          rowVersion,
          data: { echo_date: echoDate, lvef: 40, nyha: '2' },
        }),
      );
    const first = await save(0, '2026-03-02');
    expect((await tasksOf(fieldPlan.id, P[5])).map((x) => x.dueDate)).toEqual(['2026-03-16']);
    await save(first.rowVersion, '2026-03-10');
    expect((await tasksOf(fieldPlan.id, P[5])).map((x) => [x.dueDate, x.windowStart, x.windowEnd])).toEqual([
      ['2026-03-24', '2026-03-21', '2026-03-27'],
    ]);
  });
});

describe('PUT followup/plan (re-scheduling)', () => {
  let plan: PlanVO;
  const update = (input: Record<string, unknown>) =>
    call(owner, 'PUT', '/followup/plan', {
      ...relative('改期计划'),
      id: plan.id,
      rowVersion: plan.rowVersion,
      ...input,
    });

  beforeAll(async () => {
    plan = await createPlan(relative('改期计划', { assignMode: 'manual', rule: null }));
    await activate(plan.id);
    await okData(await call(owner, 'POST', '/followup/assignment/add', { planId: plan.id, patientIds: [P[1], P[6]] }));
    plan = await detail(plan.id);
    // the first visit of patient 1 is done
    const [done] = await tasksOf(plan.id, P[1]);
    await t.db
      .update(followupTasks)
      .set({ status: 'done' })
      .where(eq(followupTasks.id, done?.id ?? ''));
  });

  it('should ask whether to re-schedule when the schedule of a plan in use changes', async () => {
    const res = await update({ visits: plan.visits.map((v) => ({ ...v, windowAfter: v.windowAfter + 1 })) });
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>().issues).toEqual([{ path: 'reschedule', message: '请选择是否重新安排未完成的随访任务' }]);
    // a rename needs no answer
    const read = plan.rowVersion;
    plan = await okData<PlanVO>(await update({ description: '仅修改说明', visits: plan.visits }));
    expect(plan.rowVersion).toBe(read + 1);
    const stale = await call(owner, 'PUT', '/followup/plan', {
      ...relative('改期计划'),
      id: plan.id,
      rowVersion: read,
      visits: plan.visits,
    });
    expect(stale.statusCode).toBe(409);
  });

  it('should keep existing tasks with reschedule false and create the tasks of a new visit', async () => {
    const before = await tasksOf(plan.id);
    plan = await okData<PlanVO>(
      await update({
        reschedule: false,
        visits: [
          ...plan.visits.map((v) => ({ ...v, offset: (v.offset ?? 0) + 1 })),
          {
            name: '出院后6个月',
            offset: 6,
            offsetUnit: 'month',
            windowBefore: 14,
            windowAfter: 14,
            contactMethod: 'phone',
          },
        ],
      }),
    );
    const after = await tasksOf(plan.id);
    for (const b of before) expect(after.find((a) => a.id === b.id)?.dueDate).toBe(b.dueDate);
    expect(after).toHaveLength(before.length + 2);
  });

  it('should move open tasks, cancel those of a removed visit and leave done ones with reschedule true', async () => {
    const before = await tasksOf(plan.id, P[1]);
    const [v1, v3, v6] = plan.visits; // offsets 2, 4, 6 months
    const res = await update({ reschedule: true, visits: [v1, { ...v6, offset: 12 }] });
    plan = await okData<PlanVO>(res);
    expect(v3).toBeDefined();
    const after = await tasksOf(plan.id, P[1]);
    const byVisit = (visitId: string | undefined) => after.find((x) => x.visitId === visitId);
    // visit 1 of patient 1 was done: unchanged
    expect(byVisit(v1?.id)).toMatchObject({
      status: 'done',
      dueDate: before.find((b) => b.visitId === v1?.id)?.dueDate,
    });
    expect(byVisit(v3?.id)).toMatchObject({ status: 'cancelled', closedReason: '访视已从计划中删除' });
    expect(byVisit(v6?.id)).toMatchObject({ status: 'open', dueDate: '2027-01-08' });
    // patient 6 (enrolled 2026-01-22): the open first visit moved to 2 months
    expect((await tasksOf(plan.id, P[6])).find((x) => x.visitId === v1?.id)?.dueDate).toBe('2026-03-22');
    expect(await auditActions(plan.id)).toEqual(
      expect.arrayContaining(['followup_plan.create', 'followup_plan.update', 'followup_plan.activate']),
    );
  });
});

describe('rules', () => {
  it('should assign by sub-project only the patients of that cohort', async () => {
    const plan = await createPlan(relative('HFpEF 随访', { rule: { subProjectIds: [hfpefId] } }));
    expect(await activate(plan.id)).toMatchObject({ assigned: 2 });
    const rows = await t.db.select().from(followupAssignments).where(eq(followupAssignments.planId, plan.id));
    expect(rows.map((r) => r.patientId).sort()).toEqual([P[3], P[7]].sort());
  });

  it('should assign by a field value (set-based on activation, per patient on a record save)', async () => {
    const save = (patientId: string | undefined, comorbidities: string[]) =>
      call(owner, 'POST', '/form-record/save', {
        patientId,
        formKey: 'medical_history',
        rowVersion: 0,
        data: { smoking: '0', comorbidities },
      });
    expect((await save(P[6], ['htn', 'af'])).statusCode).toBe(200);
    expect((await save(P[8], ['htn'])).statusCode).toBe(200);
    const plan = await createPlan(
      relative('房颤随访', {
        rule: {
          subProjectIds: [],
          field: { formKey: 'medical_history', fieldKey: 'comorbidities', op: 'eq', values: ['af'] },
        },
      }),
    );
    expect(await activate(plan.id)).toMatchObject({ assigned: 1, tasksCreated: 2 });
    expect((await save(P[1], ['af'])).statusCode).toBe(200);
    const rows = await t.db.select().from(followupAssignments).where(eq(followupAssignments.planId, plan.id));
    expect(rows.map((r) => r.patientId).sort()).toEqual([P[1], P[6]].sort());
    expect(rows.every((r) => r.source === 'rule')).toBe(true);
  });
});

describe('assignments by hand', () => {
  let plan: PlanVO;
  beforeAll(async () => {
    plan = await createPlan(relative('手动随访', { assignMode: 'manual', rule: null }));
  });

  it('should refuse a plan that is not active, then add, skip and remove', async () => {
    const early = await call(owner, 'POST', '/followup/assignment/add', { planId: plan.id, patientIds: [P[1]] });
    expect(early.statusCode).toBe(409);
    expect(early.json<Body>().message).toBe('随访计划未启用');
    await activate(plan.id);
    const add = (ids: (string | undefined)[]) =>
      call(owner, 'POST', '/followup/assignment/add', { planId: plan.id, patientIds: ids });
    expect(await okData(await add([P[1], P[6]]))).toMatchObject({ assigned: 2, tasksCreated: 4, skipped: 0 });
    expect(await okData(await add([P[1]]))).toMatchObject({ assigned: 0, skipped: 1 });
    const removed = await okData<{ count: number }>(
      await call(owner, 'POST', '/followup/assignment/remove', {
        planId: plan.id,
        patientIds: [P[6]],
        reason: '转院',
      }),
    );
    expect(removed.count).toBe(1);
    const tasks = await tasksOf(plan.id, P[6]);
    expect(tasks.every((x) => x.status === 'cancelled' && x.closedReason === '转院')).toBe(true);
    expect(await auditActions(plan.id)).toEqual(
      expect.arrayContaining(['followup_assignment.add', 'followup_assignment.remove']),
    );
    // a patient outside the project answers like a missing one
    const missing = await add(['00000000-0000-4000-8000-000000000000']);
    expect(missing.statusCode).toBe(404);
  });

  it('should page the plan patients of the caller center only, masked without patient.pii', async () => {
    await okData(await call(owner, 'POST', '/followup/assignment/add', { planId: plan.id, patientIds: [P[7]] }));
    const all = await okData<{ records: AssignmentVO[]; total: number }>(
      await call(owner, 'POST', '/followup/assignment/page', { planId: plan.id, current: 1, size: 20 }),
    );
    expect(all.total).toBe(3);
    const c02 = await okData<{ records: AssignmentVO[]; total: number }>(
      await call(lead2, 'POST', '/followup/assignment/page', { planId: plan.id, current: 1, size: 20 }),
    );
    expect(c02.records.map((r) => r.patientNo).sort()).toEqual(['C02-0006', 'C02-0007']);
    expect([C[6]?.patientNo, C[7]?.patientNo]).toEqual(['C02-0006', 'C02-0007']);
    expect(c02.records.find((r) => r.patientNo === 'C02-0006')).toMatchObject({ status: 'stopped', tasksTotal: 0 });
    const byKeyword = await okData<{ records: AssignmentVO[] }>(
      await call(owner, 'POST', '/followup/assignment/page', { planId: plan.id, keyword: 'C01', current: 1, size: 20 }),
    );
    expect(byKeyword.records.map((r) => r.patientNo)).toEqual([C[1]?.patientNo]);
    expect(C[1]?.patientNo).toBe('C01-0001');
    expect(byKeyword.records[0]?.tasksTotal).toBe(2);
    // the hospital number matches only for a patient.pii holder: for others it is masked, and a partial match
    // would spell it out
    const byHospitalNo = (token: string) =>
      call(token, 'POST', '/followup/assignment/page', { planId: plan.id, keyword: 'ZY202600', current: 1, size: 20 });
    expect((await okData<{ records: AssignmentVO[] }>(await byHospitalNo(owner))).records.length).toBeGreaterThan(0);
    const viewerRole = await call(owner, 'POST', '/project-role', {
      code: 'fu_viewer',
      name: '随访查看',
      permissions: ['followup.list'],
    });
    expect(viewerRole.statusCode, viewerRole.body).toBe(200);
    const viewerToken = (await member(t, hf, 'fu_viewer', { centerId: null })).token;
    // the viewer sees the plan's patients (masked), so finding none by the hospital number is the mask at work
    const seen = await okData<{ records: AssignmentVO[]; total: number }>(
      await call(viewerToken, 'POST', '/followup/assignment/page', { planId: plan.id, current: 1, size: 20 }),
    );
    expect(seen.total).toBe(3);
    expect((await okData<{ total: number }>(await byHospitalNo(viewerToken))).total).toBe(0);
  });
});

describe('stop and delete', () => {
  it('should stop a plan and cancel its open tasks on request', async () => {
    const plan = await createPlan(relative('停用计划', { rule: { subProjectIds: [hfpefId] } }));
    await activate(plan.id);
    const stopped = await okData<{ count: number }>(
      await call(owner, 'POST', '/followup/plan/stop', { id: plan.id, cancelOpenTasks: true }),
    );
    expect(stopped.count).toBe(4);
    const tasks = await tasksOf(plan.id);
    expect(tasks.every((x) => x.status === 'cancelled' && x.closedReason === '随访计划已停用')).toBe(true);
    expect((await detail(plan.id)).status).toBe('stopped');
    // a plan with tasks cannot be deleted
    const del = await call(owner, 'POST', '/followup/plan/delete', { id: plan.id });
    expect(del.statusCode).toBe(409);
    expect(await auditActions(plan.id)).toContain('followup_plan.stop');
  });

  it('should delete a draft and free its name', async () => {
    const plan = await createPlan(relative('草稿计划', { assignMode: 'manual', rule: null }));
    expect(await okData(await call(owner, 'POST', '/followup/plan/delete', { id: plan.id }))).toEqual({ count: 1 });
    expect((await call(owner, 'GET', `/followup/plan/detail?id=${plan.id}`)).statusCode).toBe(404);
    await createPlan(relative('草稿计划', { assignMode: 'manual', rule: null }));
    expect(await auditActions(plan.id)).toEqual(['followup_plan.create', 'followup_plan.delete']);
    // the same call as DELETE followup/plan?id=
    const other = await createPlan(relative('另一草稿', { assignMode: 'manual', rule: null }));
    const res = await t.api({ method: 'DELETE', url: `/followup/plan?id=${other.id}`, token: owner });
    expect(await okData(res)).toEqual({ count: 1 });
  });

  it('should list the plans for a followup.list member, newest first', async () => {
    const list = await okData<PlanVO[]>(await call(nurse, 'GET', '/followup/plan/list'));
    expect(list[0]?.name).toBe('草稿计划');
    expect(list.map((p) => p.name)).toContain('出院随访');
    const ids = list.map((p) => p.id);
    const rows = await t.db.select().from(followupTasks).where(inArray(followupTasks.planId, ids));
    expect(rows.length).toBeGreaterThan(0);
  });
});
