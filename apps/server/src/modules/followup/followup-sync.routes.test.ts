import { and, asc, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanApplyResponse, PlanInput, PlanVO } from '@registry/shared/contracts/followup';
import { auditEvents, followupAssignments, followupPlans, followupTasks, formRecords, patients } from '../../db/schema';
import { center, followupPlan, hospital, project, publishCrf } from '../../../test/factories';
import { createBareTestApp, type TestApp } from '../../../test/test-app';
import { buildCohort, buildPlan, FOLLOWUP_TEST_CRF } from './followup.test-factory';

/**
 * The follow-up consequences of patient changes (followup-sync.ts `syncPatientFollowup` and its callers): a patient
 * made deceased by the patient edit call, a deleted patient, and rule assignments the patient stops (and starts again)
 * matching; and the same rule step for a whole plan (`applyPlanRule`: plan/apply after the rule was edited).
 */

type Body<T = unknown> = { status: number; message: string; data: T };

let t: TestApp;
let owner: string;
let hfpefId: string;
let tenantId: string;
/** The cohort's patients (followup.test-factory.ts) by number: 1–5 at C01, 6–8 at C02; 3 and 7 in HFpEF; 4 deceased. */
const P: Record<string, string> = {};

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  t.api({
    method,
    url,
    token: owner,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

async function okData<T>(res: Awaited<ReturnType<typeof call>>): Promise<T> {
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Body<T>>().data;
}

const VISITS: PlanInput['visits'] = [
  { name: '出院后1个月', offset: 1, offsetUnit: 'month', windowBefore: 7, windowAfter: 7, contactMethod: 'phone' },
  { name: '出院后3个月', offset: 3, offsetUnit: 'month', windowBefore: 14, windowAfter: 14, contactMethod: 'phone' },
];

async function activePlan(name: string, extra: Partial<PlanInput>): Promise<PlanVO> {
  t.clock.advanceMinutes(1);
  const { plan } = await followupPlan(t, owner, {
    name,
    kind: 'relative',
    anchor: { type: 'enrol' },
    visits: VISITS,
    assignMode: 'auto',
    rule: { subProjectIds: [] },
    ...extra,
  });
  return plan;
}

const tasksOf = (planId: string, patientId: string | undefined) =>
  t.db
    .select()
    .from(followupTasks)
    .where(and(eq(followupTasks.planId, planId), eq(followupTasks.patientId, patientId ?? '')))
    .orderBy(asc(followupTasks.dueDate));

async function assignmentOf(planId: string, patientId: string | undefined) {
  const [row] = await t.db
    .select()
    .from(followupAssignments)
    .where(and(eq(followupAssignments.planId, planId), eq(followupAssignments.patientId, patientId ?? '')));
  return row;
}

async function editPatient(patientId: string | undefined, change: Record<string, unknown>) {
  const [row] = await t.db
    .select()
    .from(patients)
    .where(eq(patients.id, patientId ?? ''));
  return okData(await call('PUT', '/patient-info', { id: patientId, rowVersion: row?.rowVersion, ...change }));
}

const syncEvents = async (patientId: string | undefined) =>
  t.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.entityId, patientId ?? ''), eq(auditEvents.action, 'followup.sync')))
    .orderBy(asc(auditEvents.id));

/** Marks the patient's first task of the plan done (a visit already made). */
async function doneFirst(planId: string, patientId: string | undefined) {
  const [first] = await tasksOf(planId, patientId);
  await t.db
    .update(followupTasks)
    .set({ status: 'done', closedAt: t.clock.now() })
    .where(eq(followupTasks.id, first?.id ?? ''));
  return first?.id;
}

beforeAll(async () => {
  t = await createBareTestApp();
  // a hospital's project (its administrator the owner) with the follow-up CRF, centers C01 (default) and C02, the
  // sub-project HFpEF and the eight cohort patients
  const h = await hospital(t);
  const hf = await project(t, h.admin);
  tenantId = hf.tenantId;
  owner = h.admin.token;
  await publishCrf(t, owner, FOLLOWUP_TEST_CRF);
  const c02 = await center(t, hf, { code: 'C02' });
  hfpefId = (await project(t, h.admin, { name: '射血分数保留型心衰亚组', parentId: hf.id })).id;
  for (const [n, patient] of Object.entries(
    await buildCohort(t, hf, { secondCenterId: c02.id, subProjectId: hfpefId }),
  ))
    P[n] = patient.id;
});
afterAll(async () => {
  await t?.close();
});

describe('a deceased or deleted patient', () => {
  let plan: PlanVO;
  beforeAll(async () => {
    plan = await activePlan('手动随访', { assignMode: 'manual', rule: null });
    await okData(await call('POST', '/followup/assignment/add', { planId: plan.id, patientIds: [P[1], P[2]] }));
  });

  it('should cancel the open tasks of a patient made deceased by the patient edit, as the death call does', async () => {
    const done = await doneFirst(plan.id, P[1]);
    await editPatient(P[1], { status: 'deceased' });
    const tasks = await tasksOf(plan.id, P[1]);
    expect(tasks.map((x) => [x.id === done, x.status, x.closedReason])).toEqual([
      [true, 'done', null],
      [false, 'cancelled', '患者已死亡'],
    ]);
    expect((await assignmentOf(plan.id, P[1]))?.status).toBe('active');
    const [event] = await syncEvents(P[1]);
    expect(event).toMatchObject({ reason: '患者已死亡' });
    expect(event?.newValue).toMatchObject({ cancelledTaskIds: [tasks[1]?.id], stoppedAssignmentIds: [] });
    // a later edit of the deceased patient changes nothing more
    await editPatient(P[1], { phone: '13800000001' });
    expect(await syncEvents(P[1])).toHaveLength(1);
  });

  it('should cancel the open tasks and stop the assignments of a deleted patient, with the delete', async () => {
    const res = await call('DELETE', `/patient-info?ids=${P[2]}&reason=${encodeURIComponent('重复录入')}`);
    expect(res.statusCode, res.body).toBe(200);
    const tasks = await tasksOf(plan.id, P[2]);
    expect(tasks).toHaveLength(2);
    expect(tasks.every((x) => x.status === 'cancelled' && x.closedReason === '患者已删除')).toBe(true);
    expect(await assignmentOf(plan.id, P[2])).toMatchObject({ status: 'stopped', stoppedReason: '患者已删除' });
    const [event] = await syncEvents(P[2]);
    expect(event).toMatchObject({ reason: '患者已删除' });
  });
});

describe('rule assignments the patient no longer matches', () => {
  it('should stop and resume an assignment by a field value, re-opening its cancelled tasks', async () => {
    const plan = await activePlan('房颤随访', {
      rule: {
        subProjectIds: [],
        field: { formKey: 'medical_history', fieldKey: 'comorbidities', op: 'eq', values: ['af'] },
      },
    });
    const save = async (comorbidities: string[]) => {
      const [row] = await t.db
        .select()
        .from(formRecords)
        .where(and(eq(formRecords.patientId, P[8] ?? ''), eq(formRecords.formKey, 'medical_history')));
      return okData(
        await call('POST', '/form-record/save', {
          patientId: P[8],
          formKey: 'medical_history',
          rowVersion: row?.rowVersion ?? 0,
          data: { smoking: '0', comorbidities },
        }),
      );
    };
    await save(['af']);
    expect(await assignmentOf(plan.id, P[8])).toMatchObject({ source: 'rule', status: 'active' });
    const before = await tasksOf(plan.id, P[8]);
    expect(before).toHaveLength(2);
    const done = await doneFirst(plan.id, P[8]);

    t.clock.advanceMinutes(5);
    await save(['htn']);
    expect(await assignmentOf(plan.id, P[8])).toMatchObject({ status: 'stopped', stoppedReason: '不再符合分配规则' });
    const stopped = await tasksOf(plan.id, P[8]);
    expect(stopped.map((x) => [x.id === done, x.status, x.closedReason])).toEqual([
      [true, 'done', null],
      [false, 'cancelled', '不再符合分配规则'],
    ]);
    const events = await syncEvents(P[8]);
    expect(events.at(-1)).toMatchObject({ reason: '不再符合分配规则' });
    expect(events.at(-1)?.newValue).toMatchObject({ stoppedPlanIds: [plan.id], cancelledTaskIds: [stopped[1]?.id] });

    t.clock.advanceMinutes(5);
    await save(['htn', 'af']);
    expect(await assignmentOf(plan.id, P[8])).toMatchObject({ status: 'active', stoppedReason: null });
    const resumed = await tasksOf(plan.id, P[8]);
    expect(resumed.map((x) => x.id)).toEqual(before.map((x) => x.id)); // the same rows, no duplicate
    expect(resumed.map((x) => [x.status, x.closedAt, x.closedBy, x.closedReason, x.dueDate])).toEqual([
      ['done', expect.any(Date), null, null, before[0]?.dueDate],
      ['open', null, null, null, before[1]?.dueDate],
    ]);
    expect((await syncEvents(P[8])).at(-1)?.newValue).toMatchObject({ resumedPlanIds: [plan.id], tasksReopened: 1 });
  });

  it('should stop a rule assignment of a patient who left the sub-project, never a manual one, and resume it', async () => {
    const plan = await activePlan('HFpEF 随访', { rule: { subProjectIds: [hfpefId] } });
    expect((await assignmentOf(plan.id, P[3]))?.source).toBe('rule');
    await okData(await call('POST', '/followup/assignment/add', { planId: plan.id, patientIds: [P[6]] }));
    expect((await assignmentOf(plan.id, P[6]))?.source).toBe('manual');
    // a plan of the sub-project itself, by rule (every patient of the cohort)
    const { planId: subPlan } = await buildPlan(t.db, {
      tenantId,
      projectId: hfpefId,
      name: '亚组随访',
      visits: [{ name: '30天' }],
    });
    await t.db
      .update(followupPlans)
      .set({ assignMode: 'auto', rule: { subProjectIds: [] } })
      .where(eq(followupPlans.id, subPlan));
    await editPatient(P[3], { phone: '13800000003' });
    expect((await assignmentOf(subPlan, P[3]))?.status).toBe('active');
    expect(await tasksOf(subPlan, P[3])).toHaveLength(1);

    // P3 leaves the cohort (no call moves a patient yet: the row changes, the next edit syncs)
    await t.db
      .update(patients)
      .set({ subProjectId: null })
      .where(eq(patients.id, P[3] ?? ''));
    await editPatient(P[3], { phone: '13800000033' });
    await editPatient(P[6], { phone: '13800000006' });
    for (const id of [plan.id, subPlan]) {
      expect(await assignmentOf(id, P[3])).toMatchObject({ status: 'stopped', stoppedReason: '不再符合分配规则' });
      const tasks = await tasksOf(id, P[3]);
      expect(tasks.length).toBe(id === subPlan ? 1 : 2);
      expect(tasks.every((x) => x.status === 'cancelled' && x.closedReason === '不再符合分配规则')).toBe(true);
    }
    expect(await assignmentOf(plan.id, P[6])).toMatchObject({ source: 'manual', status: 'active' });
    const manual = await tasksOf(plan.id, P[6]);
    expect(manual).toHaveLength(2);
    expect(manual.every((x) => x.status === 'open')).toBe(true);

    // back in the cohort
    await t.db
      .update(patients)
      .set({ subProjectId: hfpefId })
      .where(eq(patients.id, P[3] ?? ''));
    await editPatient(P[3], { phone: '13800000003' });
    for (const id of [plan.id, subPlan]) {
      expect((await assignmentOf(id, P[3]))?.status).toBe('active');
      const tasks = await tasksOf(id, P[3]);
      expect(tasks.length).toBe(id === subPlan ? 1 : 2);
      expect(tasks.every((x) => x.status === 'open' && x.closedReason === null)).toBe(true);
    }
  });

  it('should not resume an assignment removed by hand when the patient matches', async () => {
    const plan = await activePlan('全体随访', {});
    await okData(
      await call('POST', '/followup/assignment/remove', { planId: plan.id, patientIds: [P[5]], reason: '转院' }),
    );
    await editPatient(P[5], { phone: '13800000005' });
    expect(await assignmentOf(plan.id, P[5])).toMatchObject({ status: 'stopped', stoppedReason: '转院' });
    const tasks = await tasksOf(plan.id, P[5]);
    expect(tasks).toHaveLength(2);
    expect(tasks.every((x) => x.status === 'cancelled' && x.closedReason === '转院')).toBe(true);
  });
});

describe('plan/apply after the rule was narrowed and widened again', () => {
  // Live patients here (the tests above ran first): 3 and 7 in HFpEF; 5, 6 and 8 not (1 and 4 deceased, 2 deleted).
  let plan: PlanVO;
  const setRule = async (subProjectIds: string[]) => {
    const current = await okData<PlanVO>(await call('GET', `/followup/plan/detail?id=${plan.id}`));
    plan = await okData<PlanVO>(
      await call('PUT', '/followup/plan', {
        id: plan.id,
        rowVersion: current.rowVersion,
        name: current.name,
        kind: 'relative',
        anchor: { type: 'enrol' },
        visits: current.visits,
        assignMode: 'auto',
        rule: { subProjectIds },
      }),
    );
  };
  const apply = async () => okData<PlanApplyResponse>(await call('POST', '/followup/plan/apply', { id: plan.id }));

  it('should stop the rule assignments that no longer match, never a manual one, and resume them', async () => {
    plan = await activePlan('重新分配随访', { rule: { subProjectIds: [hfpefId] } });
    expect((await assignmentOf(plan.id, P[3]))?.source).toBe('rule');
    expect(await assignmentOf(plan.id, P[5])).toBeUndefined();
    await okData(await call('POST', '/followup/assignment/add', { planId: plan.id, patientIds: [P[6]] }));

    // widened to every patient: 5 and 8 join by rule
    await setRule([]);
    // editing the rule alone re-applies nothing
    expect(await assignmentOf(plan.id, P[5])).toBeUndefined();
    t.clock.advanceMinutes(1);
    expect(await apply()).toEqual({ assigned: 2, tasksCreated: 4, waitingForAnchor: 0, stopped: 0 });
    expect(await assignmentOf(plan.id, P[5])).toMatchObject({ source: 'rule', status: 'active' });
    const before = await tasksOf(plan.id, P[5]);
    const done = await doneFirst(plan.id, P[5]);

    // narrowed to HFpEF again: the rule assignments of 5 and 8 stop; 6 (by hand) and the cohort stay
    t.clock.advanceMinutes(1);
    await setRule([hfpefId]);
    expect(await apply()).toEqual({ assigned: 0, tasksCreated: 0, waitingForAnchor: 0, stopped: 2 });
    for (const id of [P[5], P[8]])
      expect(await assignmentOf(plan.id, id)).toMatchObject({ status: 'stopped', stoppedReason: '不再符合分配规则' });
    const stopped = await tasksOf(plan.id, P[5]);
    expect(stopped.map((x) => [x.id === done, x.status, x.closedReason, x.closedAt])).toEqual([
      [true, 'done', null, expect.any(Date)],
      [false, 'cancelled', '不再符合分配规则', t.clock.now()],
    ]);
    expect((await tasksOf(plan.id, P[8])).every((x) => x.status === 'cancelled')).toBe(true);
    expect(await assignmentOf(plan.id, P[6])).toMatchObject({ source: 'manual', status: 'active' });
    expect((await tasksOf(plan.id, P[6])).every((x) => x.status === 'open')).toBe(true);
    for (const id of [P[3], P[7]]) expect((await assignmentOf(plan.id, id))?.status).toBe('active');
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, plan.id), eq(auditEvents.action, 'followup_plan.apply')))
      .orderBy(desc(auditEvents.id))
      .limit(1);
    expect(event?.newValue).toMatchObject({ stopped: 2, tasksCancelled: 3 });
    // applying again changes nothing
    expect(await apply()).toEqual({ assigned: 0, tasksCreated: 0, waitingForAnchor: 0, stopped: 0 });

    // 5's enrolment date moved while stopped: the re-opened task gets the new dates
    await t.db
      .update(patients)
      .set({ enrolDate: '2026-03-01' })
      .where(eq(patients.id, P[5] ?? ''));
    t.clock.advanceMinutes(1);
    await setRule([]);
    expect(await apply()).toEqual({ assigned: 2, tasksCreated: 0, waitingForAnchor: 0, stopped: 0 });
    expect(await assignmentOf(plan.id, P[5])).toMatchObject({ status: 'active', stoppedReason: null });
    const resumed = await tasksOf(plan.id, P[5]);
    expect(resumed.map((x) => x.id)).toEqual(before.map((x) => x.id)); // the same rows, no duplicate
    expect(resumed.map((x) => [x.status, x.closedReason, x.dueDate])).toEqual([
      ['done', null, before[0]?.dueDate],
      ['open', null, '2026-06-01'],
    ]);
    expect((await tasksOf(plan.id, P[8])).every((x) => x.status === 'open')).toBe(true);
  });

  it('should never resume an assignment stopped by hand', async () => {
    await call('POST', '/followup/assignment/remove', { planId: plan.id, patientIds: [P[8]], reason: '转院' });
    expect(await apply()).toMatchObject({ assigned: 0, stopped: 0 });
    expect(await assignmentOf(plan.id, P[8])).toMatchObject({ status: 'stopped', stoppedReason: '转院' });
  });
});
