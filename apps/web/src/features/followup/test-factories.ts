import type { CenterVO } from '@registry/shared/contracts/center';
import type { PlanVO, TaskCounts, TaskDetailVO, TaskListItem } from '@registry/shared/contracts/followup';
import type { PublishedVersion } from '@registry/shared/contracts/form-definition';
import type { TenantDoctor } from '@registry/shared/contracts/project';
import type { Definition } from '@registry/shared/forms/definition';
import { addDays, shanghaiDate } from '@registry/shared/followup/schedule';

/** Realistic data of the follow-up pages' tests: a heart-failure registry with a 3-visit plan after enrolment. */

export const PROJECT = { projectCode: 'HF-REG', projectId: 'p-1', projectName: '心衰登记', subProject: false };
export const PATIENT_ID = '9a3e6c1b-2f4d-4e8a-b1c7-5d6e7f8a9b01';
export const PLAN_ID = '3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a98';
export const VISIT_1 = '5b4a3928-1706-4f5e-8d4c-3b2a19087f6e';
export const VISIT_2 = '6c5b4a39-2817-4a6f-9e5d-4c3b2a190870';
export const VERSION_ID = '0b7f0a3e-64a4-4c5e-9d0f-3f1d2b7a1c11';
export const TASK_1 = '1e2d3c4b-5a69-4788-97a6-b5c4d3e2f101';
export const TASK_2 = '2f3e4d5c-6b7a-4899-a8b7-c6d5e4f3a202';
export const DOCTOR_ID = '8d7c6b5a-4938-4271-b60f-e5d4c3b2a190';
export const RECORD_ID = '4d1c2b3a-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

export const TODAY = shanghaiDate(new Date());

export const FOLLOWUP_DEFINITION: Definition = {
  categories: [
    {
      key: 'followup',
      title: '随访',
      forms: [
        {
          key: 'followup_visit',
          title: '随访记录',
          followUp: true,
          repeating: true,
          fields: [
            { key: 'fu_date', label: '随访日期', type: 'date', required: true },
            { key: 'nyha', label: 'NYHA分级', type: 'text', maxLength: 20 },
          ],
        },
      ],
    },
  ],
  missingCodes: [{ code: 'UNK', label: '不详' }],
};

export function buildVersion(definition: Definition = FOLLOWUP_DEFINITION): PublishedVersion {
  return { versionId: VERSION_ID, versionNo: 1, projectId: 'p-1', definition };
}

export function buildTask(overrides: Partial<TaskListItem> = {}): TaskListItem {
  return {
    id: TASK_1,
    patientId: PATIENT_ID,
    patientNo: 'C01-0001',
    patientName: '张三',
    gender: '1',
    phone: '13800000001',
    centerId: 'c-1',
    centerName: '示例第一人民医院',
    planId: PLAN_ID,
    planName: '心衰出院后随访',
    visitId: VISIT_1,
    visitName: '出院后1个月',
    contactMethod: 'phone',
    dueDate: TODAY,
    windowStart: addDays(TODAY, -7),
    windowEnd: addDays(TODAY, 3),
    status: 'open',
    state: 'due',
    ownerId: null,
    ownerName: null,
    attempts: 0,
    lastContactAt: null,
    lastOutcome: null,
    closedAt: null,
    closedReason: null,
    rowVersion: 1,
    ...overrides,
  };
}

export function buildCounts(overrides: Partial<TaskCounts> = {}): TaskCounts {
  return { due: 2, overdue: 1, upcoming: 5, done: 12, lost: 0, dueToday: 1, ...overrides };
}

export function buildPlan(overrides: Partial<PlanVO> = {}): PlanVO {
  const visit = (id: string, seq: number, name: string, offset: number) => ({
    id,
    seq,
    name,
    offset,
    offsetUnit: 'month' as const,
    fixedDate: null,
    windowBefore: 7,
    windowAfter: 7,
    formKeys: ['followup_visit'],
    contactMethod: 'phone' as const,
  });
  return {
    id: PLAN_ID,
    name: '心衰出院后随访',
    description: null,
    kind: 'relative',
    status: 'active',
    anchor: { type: 'enrol' },
    anchorLabel: '入组日期',
    period: null,
    visits: [visit(VISIT_1, 1, '出院后1个月', 1), visit(VISIT_2, 2, '出院后3个月', 3)],
    assignMode: 'auto',
    rule: null,
    remindDaysBefore: 0,
    defaultOwnerId: null,
    defaultOwnerName: null,
    patientCount: 10,
    openTaskCount: 8,
    overdueTaskCount: 1,
    rowVersion: 1,
    createdByName: '王主任',
    createdAt: '2026-01-05T08:00:00.000Z',
    updatedAt: '2026-01-05T08:00:00.000Z',
    ...overrides,
  };
}

export function buildDoctor(overrides: Partial<TenantDoctor> = {}): TenantDoctor {
  return { id: DOCTOR_ID, name: '李医生', username: 'lidoc', departmentName: '心内科', ...overrides };
}

export function buildCenter(overrides: Partial<CenterVO> = {}): CenterVO {
  return {
    id: 'c-1',
    code: 'C01',
    name: '示例第一人民医院',
    organisationId: 'o-1',
    organisationName: '示例第一人民医院',
    leadUserId: null,
    leadName: null,
    status: 'active',
    isDefault: true,
    memberCount: 3,
    createdAt: '2026-01-05T08:00:00.000Z',
    ...overrides,
  };
}

export function buildDetail(overrides: Partial<TaskDetailVO> = {}): TaskDetailVO {
  const plan = buildPlan();
  return {
    task: buildTask(),
    patient: {
      id: PATIENT_ID,
      patientNo: 'C01-0001',
      name: '张三',
      gender: '1',
      birthDate: '1958-05-12',
      phone: '13800000001',
      enrolDate: '2026-03-02',
      status: 'enrolled',
      deathDate: null,
      deathCause: null,
      lostAt: null,
      lostReason: null,
    },
    plan: { id: PLAN_ID, name: plan.name, anchorLabel: '入组日期' },
    visit: plan.visits[0] as TaskDetailVO['visit'],
    contacts: [],
    versionId: VERSION_ID,
    forms: [{ formKey: 'followup_visit', title: '随访记录', record: null }],
    otherTasks: [
      { id: TASK_2, planName: plan.name, visitName: '出院后3个月', dueDate: addDays(TODAY, 60), state: 'upcoming' },
    ],
    ...overrides,
  };
}
