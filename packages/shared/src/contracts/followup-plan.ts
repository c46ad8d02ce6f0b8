import { z } from 'zod';
import { clinicalDate, int4 } from './fields';
import { page, pageRequest } from './envelope';
import { OFFSET_UNITS } from '../followup/schedule';
import { PLAN_KINDS, PLAN_STATUSES, ASSIGN_MODES, CONTACT_METHODS } from './followup-codes';

/** Follow-up plans and their assignments to patients (the contract `contracts/followup.ts` describes the whole). */

const id = (message: string) => z.guid(message);

/** The anchor of a relative plan: the enrolment date, or a date field (`date` type) of a non-repeating CRF form. */
export const planAnchor = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('enrol') }),
    z.object({
      type: z.literal('field'),
      formKey: z.string().trim().min(1, '请选择基准日期所在表单').max(64),
      fieldKey: z.string().trim().min(1, '请选择基准日期字段').max(64),
    }),
  ],
  '请选择基准日期',
);
export type PlanAnchor = z.infer<typeof planAnchor>;

/** A fixed plan given as a period: `times` visits, the first on `startDate`, then every `everyMonths` months. */
export const planPeriod = z.object({
  startDate: clinicalDate('请选择首次随访日期'),
  everyMonths: z
    .number('请输入间隔月数')
    .int('间隔月数须为整数')
    .min(1, '间隔至少1个月')
    .max(120, '间隔不能超过120个月'),
  times: z.number('请输入随访次数').int('随访次数须为整数').min(1, '至少随访1次').max(100, '随访次数不能超过100次'),
  /** Window of each generated visit. */
  windowBefore: z.number().int().min(0, '窗口期不能为负数').max(365, '窗口期不能超过365天'),
  windowAfter: z.number().int().min(0, '窗口期不能为负数').max(365, '窗口期不能超过365天'),
  formKeys: z.array(z.string().max(64)).max(50),
  contactMethod: z.enum(CONTACT_METHODS, '请选择随访方式'),
});
export type PlanPeriod = z.infer<typeof planPeriod>;

/**
 * The assignment rule of an `auto` plan: a patient follows the plan when they belong to one of `subProjectIds`
 * (empty = any patient of the project) and, when `field` is given, the field matches (`eq`: the value equals one of
 * `values` (a multiple choice: contains one); `filled`: the field has a value). The field is a non-repeating form's
 * field of the published definition.
 */
export const planRule = z.object({
  subProjectIds: z.array(id('请选择子项目')).max(50).default([]),
  field: z
    .object({
      formKey: z.string().trim().min(1, '请选择规则字段所在表单').max(64),
      fieldKey: z.string().trim().min(1, '请选择规则字段').max(64),
      op: z.enum(['eq', 'filled'], '请选择规则条件'),
      values: z.array(z.string().max(200)).max(50).default([]),
    })
    .nullable()
    .optional(),
});
export type PlanRule = z.infer<typeof planRule>;

export const visitInput = z.object({
  /** An existing visit's id keeps its tasks when a plan is edited; a visit without id is new. */
  id: id('访视不存在').optional(),
  name: z.string().trim().min(1, '请输入访视名称').max(100, '访视名称不能超过100个字符'),
  /** Relative plans. */
  offset: z
    .number('请输入时间间隔')
    .int('时间间隔须为整数')
    .min(0, '时间间隔不能为负数')
    .max(36500)
    .nullable()
    .optional(),
  offsetUnit: z.enum(OFFSET_UNITS, '请选择时间单位').nullable().optional(),
  /** Fixed plans. */
  fixedDate: clinicalDate('随访日期格式不正确').nullable().optional(),
  windowBefore: z
    .number('请输入窗口期')
    .int('窗口期须为整数')
    .min(0, '窗口期不能为负数')
    .max(365, '窗口期不能超过365天'),
  windowAfter: z
    .number('请输入窗口期')
    .int('窗口期须为整数')
    .min(0, '窗口期不能为负数')
    .max(365, '窗口期不能超过365天'),
  /** Keys of forms of the published definition to fill at this visit (usually `followUp` forms). */
  formKeys: z.array(z.string().max(64)).max(50).default([]),
  contactMethod: z.enum(CONTACT_METHODS, '请选择随访方式'),
});
export type VisitInput = z.input<typeof visitInput>;

/**
 * The editable part of a plan. Relative: `anchor` and `visits` with `offset`/`offsetUnit`. Fixed: `visits` with
 * `fixedDate`, or `period` (the server then generates the visits `第1次随访` … and ignores `visits`). 400 with the
 * path of the offending visit when a visit lacks what its plan kind needs; visit names are unique in a plan.
 */
export const planInput = z.object({
  name: z.string().trim().min(1, '请输入计划名称').max(100, '计划名称不能超过100个字符'),
  description: z.string().trim().max(2000, '说明不能超过2000个字符').nullable().optional(),
  kind: z.enum(PLAN_KINDS, '请选择计划类型'),
  anchor: planAnchor.nullable().optional(),
  period: planPeriod.nullable().optional(),
  visits: z.array(visitInput).max(200, '访视不能超过200个').default([]),
  assignMode: z.enum(ASSIGN_MODES, '请选择分配方式'),
  rule: planRule.nullable().optional(),
  /** Reminders go out this many days before a task's window opens (0 = the day it opens). */
  remindDaysBefore: z.number().int().min(0, '提醒天数不能为负数').max(60, '提醒天数不能超过60天').default(0),
  /** Owner of newly generated tasks (a member of the project), or null = unassigned. */
  defaultOwnerId: id('请选择默认负责人').nullable().optional(),
});
export type PlanInput = z.input<typeof planInput>;

/** `POST followup/plan` (`followup.config`): a new draft plan. 409 '随访计划名称已存在' on a name taken in the project. */
export const planCreateRequest = planInput;
/**
 * `PUT followup/plan` (`followup.config`). `rowVersion` as read (409 '随访计划已被他人修改，请刷新后重试' when stale).
 * When the plan has patients and the schedule changed, `reschedule` says what happens to their open tasks: true =
 * recompute their dates, cancel those of removed visits and create tasks of new visits; false = existing tasks keep
 * their dates (the new schedule applies to tasks generated from now on). Completed, lost and cancelled tasks are never
 * touched. 400 '请选择是否重新安排未完成的随访任务' when the plan is in use, the schedule changed and `reschedule` is missing.
 * Editing an active plan's `assignMode` or `rule` does NOT re-apply the rule to existing patients (no assignment is
 * added or stopped here): call `plan/apply` (the web's 按规则重新分配) for that. Single patients are re-evaluated
 * against the new rule when the patient or a record the plan reads is saved.
 */
export const planUpdateRequest = planInput.extend({
  id: id('随访计划不存在'),
  rowVersion: int4({ message: '请提供数据版本' }),
  reschedule: z.boolean().optional(),
});
export type PlanUpdateRequest = z.input<typeof planUpdateRequest>;

export const planIdRequest = z.object({ id: id('随访计划不存在') });
/** `GET followup/plan/detail?id=` (`followup.list`): one plan (`planVO`). */
export const planIdQuery = z.object({ id: z.string().max(64, '随访计划不存在') });
/** `POST followup/plan/stop` (`followup.config`): no more assignments; `cancelOpenTasks` closes their open tasks. */
export const planStopRequest = planIdRequest.extend({ cancelOpenTasks: z.boolean().default(false) });
/**
 * `DELETE followup/plan?id=` (`followup.config`): removes a draft plan (never activated, so it has no assignments and
 * no tasks); 409 '只有草稿状态的随访计划可以删除' for an active or stopped plan (stop it instead).
 */
export const planDeleteQuery = planIdQuery;

export const visitVO = z.object({
  id: z.string(),
  seq: z.number().int(),
  name: z.string(),
  offset: z.number().int().nullable(),
  offsetUnit: z.enum(OFFSET_UNITS).nullable(),
  fixedDate: z.string().nullable(),
  windowBefore: z.number().int(),
  windowAfter: z.number().int(),
  formKeys: z.array(z.string()),
  contactMethod: z.enum(CONTACT_METHODS),
});
export type VisitVO = z.infer<typeof visitVO>;

export const planVO = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  kind: z.enum(PLAN_KINDS),
  status: z.enum(PLAN_STATUSES),
  anchor: planAnchor.nullable(),
  /** '入组日期' or '<form title> · <field label>'. */
  anchorLabel: z.string().nullable(),
  period: planPeriod.nullable(),
  visits: z.array(visitVO),
  assignMode: z.enum(ASSIGN_MODES),
  rule: planRule.nullable(),
  remindDaysBefore: z.number().int(),
  defaultOwnerId: z.string().nullable(),
  defaultOwnerName: z.string().nullable(),
  /** Patients following the plan (active assignments). */
  patientCount: z.number().int(),
  openTaskCount: z.number().int(),
  overdueTaskCount: z.number().int(),
  rowVersion: z.number().int(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PlanVO = z.infer<typeof planVO>;

/** `GET followup/plan/list` (`followup.list`): the current project's plans, newest first. */
export const planListResponse = z.array(planVO);

/**
 * `POST followup/plan/activate` and `POST followup/plan/apply` (`followup.config`): what the rule run did. For an
 * `auto` plan the rule is applied both ways: matching patients without an assignment are assigned, rule assignments
 * stopped as '不再符合分配规则' whose patient matches again resume (their cancelled tasks re-open with fresh dates), and
 * active rule assignments whose patient no longer matches stop with that reason (open tasks cancelled; done and lost
 * tasks kept). Manual assignments are never touched by the rule.
 */
export const planApplyResponse = z.object({
  /** New rule assignments plus resumed ones. */
  assigned: z.number().int(),
  tasksCreated: z.number().int(),
  /** Assigned patients whose anchor date is still blank: their tasks appear when it is entered. */
  waitingForAnchor: z.number().int(),
  /** Rule assignments stopped because the patient no longer matches the rule (always 0 for `assignment/add`). */
  stopped: z.number().int(),
});
export type PlanApplyResponse = z.infer<typeof planApplyResponse>;

/**
 * `POST followup/plan/delete` `{ id }` (`followup.config`), the same as `DELETE followup/plan?id=`: the server removes a
 * draft, and also an active or stopped plan that never generated a task (its assignments stop); 409
 * '随访计划已生成随访任务，不能删除，请停用' for a plan with tasks. Both answer `{ count: 1 }`. `plan/stop` answers
 * `{ count }` = the open tasks it cancelled.
 */
export const planDeleteRequest = planIdRequest;

// ---------------------------------------------------------------------------------------------------------------
// Assignments
// ---------------------------------------------------------------------------------------------------------------

export const ASSIGNMENT_SOURCES = ['rule', 'manual'] as const;
export const assignmentVO = z.object({
  id: z.string(),
  planId: z.string(),
  patientId: z.string(),
  patientNo: z.string(),
  /** Masked without `patient.pii`. */
  patientName: z.string(),
  centerName: z.string(),
  source: z.enum(ASSIGNMENT_SOURCES),
  status: z.enum(['active', 'stopped']),
  anchorDate: z.string().nullable(),
  tasksDone: z.number().int(),
  tasksTotal: z.number().int(),
  createdAt: z.string(),
});
export type AssignmentVO = z.infer<typeof assignmentVO>;

/** `POST followup/assignment/page` (`followup.list`): the patients of a plan. */
export const assignmentPageRequest = pageRequest.extend({
  planId: id('随访计划不存在'),
  keyword: z.string().trim().max(50, '关键字不能超过50个字符').optional(),
});
export const assignmentPageResponse = page(assignmentVO);

/**
 * `POST followup/assignment/add` (`followup.config`): attach an active plan to patients by hand (409 '随访计划未启用'
 * otherwise). Patients already following it are skipped; a stopped assignment is resumed.
 */
export const assignmentAddRequest = z.object({
  planId: id('随访计划不存在'),
  patientIds: z.array(id('患者不存在')).min(1, '请选择患者').max(500, '一次最多选择500名患者'),
});
export const assignmentAddResponse = planApplyResponse.extend({ skipped: z.number().int() });

/** `POST followup/assignment/remove` (`followup.config`): stop following; open tasks are cancelled with the reason. */
export const assignmentRemoveRequest = z.object({
  planId: id('随访计划不存在'),
  patientIds: z.array(id('患者不存在')).min(1, '请选择患者').max(500, '一次最多选择500名患者'),
  reason: z.string().trim().min(1, '请输入原因').max(500, '原因不能超过500个字符'),
});
export const countResponse = z.object({ count: z.number().int() });
