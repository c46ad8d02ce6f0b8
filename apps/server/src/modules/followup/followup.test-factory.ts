import type { Definition, FieldOption } from '@registry/shared/forms/definition';
import type { Executor } from '../../db/client';
import { followupAssignments, followupPlans, followupTasks, followupVisits } from '../../db/schema';
import { crfDefinition, enterProject, patient, type TestProject } from '../../../test/factories';
import type { TestApp } from '../../../test/test-app';

const NYHA: FieldOption[] = [
  { code: '1', label: 'I级' },
  { code: '2', label: 'II级' },
  { code: '3', label: 'III级' },
  { code: '4', label: 'IV级' },
];

/**
 * Test data of the follow-up tests. Rows of follow-up plans, visits, assignments and tasks inserted directly (the
 * worklist and record tests set dates and states exactly; plans made through the API: `followupPlan` in
 * test/factories.ts); the CRF the follow-up calls read; and a cohort of patients of known dates and states.
 */

export type VisitSpec = {
  name: string;
  formKeys?: string[];
  contactMethod?: string;
  offset?: number;
  windowBefore?: number;
  windowAfter?: number;
};

export async function buildPlan(
  db: Executor,
  spec: { tenantId: string; projectId: string; name: string; createdBy?: string; visits: VisitSpec[] },
) {
  const [plan] = await db
    .insert(followupPlans)
    .values({
      tenantId: spec.tenantId,
      projectId: spec.projectId,
      name: spec.name,
      kind: 'relative',
      status: 'active',
      anchor: { type: 'enrol' },
      createdBy: spec.createdBy ?? null,
    })
    .returning({ id: followupPlans.id });
  if (!plan) throw new Error('plan not created');
  const visits = await db
    .insert(followupVisits)
    .values(
      spec.visits.map((v, i) => ({
        tenantId: spec.tenantId,
        planId: plan.id,
        seq: i + 1,
        name: v.name,
        offset: v.offset ?? (i + 1) * 30,
        offsetUnit: 'day' as const,
        windowBefore: v.windowBefore ?? 3,
        windowAfter: v.windowAfter ?? 7,
        formKeys: v.formKeys ?? [],
        contactMethod: v.contactMethod ?? 'phone',
      })),
    )
    .returning({ id: followupVisits.id });
  return { planId: plan.id, visitIds: visits.map((v) => v.id) };
}

export async function buildAssignment(
  db: Executor,
  spec: { tenantId: string; projectId: string; planId: string; patientId: string; status?: 'active' | 'stopped' },
) {
  const [row] = await db
    .insert(followupAssignments)
    .values({ ...spec, source: 'manual', status: spec.status ?? 'active', anchorDate: '2026-01-01' })
    .returning({ id: followupAssignments.id });
  if (!row) throw new Error('assignment not created');
  return row.id;
}

export async function buildTask(
  db: Executor,
  spec: {
    tenantId: string;
    projectId: string;
    planId: string;
    visitId: string;
    assignmentId: string;
    patientId: string;
    windowStart: string;
    windowEnd: string;
    dueDate?: string;
    status?: 'open' | 'done' | 'lost' | 'cancelled';
    ownerId?: string | null;
    closedAt?: Date | null;
  },
) {
  const [row] = await db
    .insert(followupTasks)
    .values({
      ...spec,
      dueDate: spec.dueDate ?? spec.windowStart,
      status: spec.status ?? 'open',
      ownerId: spec.ownerId ?? null,
      closedAt: spec.closedAt ?? (spec.status && spec.status !== 'open' ? new Date('2026-02-01T00:00:00Z') : null),
    })
    .returning({ id: followupTasks.id });
  if (!row) throw new Error('task not created');
  return row.id;
}

/**
 * The CRF the follow-up tests read: a history form (a multiple choice for rules), an examination with a date field (an
 * anchor) and a number (not a date), a laboratory form, and the repeating follow-up visit form.
 */
export const FOLLOWUP_TEST_CRF: Definition = crfDefinition({
  medical_history: {
    title: '病史',
    fields: [
      { key: 'smoking', label: '吸烟史', type: 'yesno' },
      {
        key: 'comorbidities',
        label: '合并症',
        type: 'checkbox',
        options: [
          { code: 'htn', label: '高血压' },
          { code: 'dm', label: '糖尿病' },
          { code: 'af', label: '心房颤动' },
        ],
      },
    ],
  },
  echocardiography: {
    title: '超声心动图',
    fields: [
      { key: 'echo_date', label: '检查日期', type: 'date', maxDate: 'today', required: true },
      { key: 'lvef', label: '左室射血分数（LVEF）', type: 'decimal', unit: '%', precision: 1, min: 10, max: 80 },
      { key: 'nyha', label: 'NYHA 心功能分级', type: 'radio', options: NYHA },
    ],
  },
  laboratory: {
    title: '实验室检查',
    fields: [
      { key: 'lab_date', label: '采样日期', type: 'date', maxDate: 'today' },
      { key: 'creatinine', label: '血肌酐', type: 'decimal', unit: 'μmol/L', precision: 1, min: 0, max: 3000 },
    ],
  },
  followup_visit: {
    title: '随访记录',
    followUp: true,
    repeating: true,
    fields: [
      { key: 'fu_date', label: '随访日期', type: 'date', required: true, maxDate: 'today' },
      {
        key: 'vital_status',
        label: '生存状态',
        type: 'radio',
        required: true,
        options: [
          { code: '1', label: '存活' },
          { code: '2', label: '死亡' },
          { code: '3', label: '失访' },
        ],
      },
    ],
  },
});

/**
 * Eight patients of a project, numbered `<center>-000n` in this order (n = 1…8): 1–5 at the project's default
 * center, 6–8 at `second`; 3 and 7 in the sub-project's cohort; 4 deceased; 5 screening, 7 completed, 8 withdrawn,
 * the others enrolled. Made through `POST patient-info` by the project's owner (entering the sub-project for its
 * cohort, and back in the project after), before any plan exists.
 */
export const COHORT = [
  { center: 'default', enrolDate: '2026-01-08', status: 'enrolled', hospitalNo: 'ZY2026001' },
  { center: 'default', enrolDate: '2026-01-15', status: 'enrolled', hospitalNo: 'ZY2026002' },
  { center: 'default', enrolDate: '2026-02-03', status: 'enrolled', hospitalNo: 'ZY2026003', sub: true },
  { center: 'default', enrolDate: '2026-02-20', status: 'deceased', hospitalNo: 'ZY2026004' },
  { center: 'default', enrolDate: '2026-03-11', status: 'screening', hospitalNo: 'ZY2026005' },
  { center: 'second', enrolDate: '2026-01-22', status: 'enrolled', hospitalNo: 'B20260101' },
  { center: 'second', enrolDate: '2026-02-14', status: 'completed', hospitalNo: 'B20260102', sub: true },
  { center: 'second', enrolDate: '2026-03-02', status: 'withdrawn', hospitalNo: 'B20260103' },
] as const;

export type CohortPatient = {
  id: string;
  patientNo: string;
  enrolDate: string;
  status: string;
  subProjectId: string | null;
};

/** The eight patients of `COHORT`, keyed '1' … '8'. */
export async function buildCohort(
  t: TestApp,
  p: TestProject,
  spec: { secondCenterId: string; subProjectId: string },
): Promise<Record<string, CohortPatient>> {
  const out: Record<string, CohortPatient> = {};
  let current = '';
  for (const [i, c] of COHORT.entries()) {
    const sub = 'sub' in c && c.sub;
    const target = sub ? spec.subProjectId : p.id;
    if (target !== current) await enterProject(t, p.owner.token, target);
    current = target;
    const created = await patient(t, p.owner.token, {
      name: `随访患者${i + 1}`,
      hospitalNo: c.hospitalNo,
      centerId: c.center === 'default' ? p.defaultCenterId : spec.secondCenterId,
      enrolDate: c.enrolDate,
      status: c.status,
    });
    out[String(i + 1)] = {
      id: created.id,
      patientNo: created.patientNo,
      enrolDate: c.enrolDate,
      status: c.status,
      subProjectId: sub ? spec.subProjectId : null,
    };
  }
  if (current !== p.id) await enterProject(t, p.owner.token, p.id);
  return out;
}
