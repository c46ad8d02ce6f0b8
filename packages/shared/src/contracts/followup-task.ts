import { z } from 'zod';
import { clinicalDate, dateString, instantString, int4 } from './fields';
import { page, pageRequest } from './envelope';
import { TASK_STATES, TASK_STATUSES } from '../followup/schedule';
import { CONTACT_METHODS, CONTACT_OUTCOMES } from './followup-codes';
import { visitVO, countResponse } from './followup-plan';

/**
 * Follow-up tasks: the worklist, the follow-up record of one task (contacts, the visit's forms, complete / reopen /
 * lost), a patient's death and timeline, the home page's figures (the contract `contracts/followup.ts` describes
 * the whole).
 */

const id = (message: string) => z.guid(message);

// ---------------------------------------------------------------------------------------------------------------
// Tasks: the worklist
// ---------------------------------------------------------------------------------------------------------------

/** Filters shared by the worklist page, its counts and its export. */
export const taskFilter = z.object({
  /** A user id, `me` (the caller) or `none` (unassigned). */
  owner: z.union([z.literal('me'), z.literal('none'), id('负责人不存在')]).optional(),
  centerId: id('请选择中心').optional(),
  planId: id('请选择随访计划').optional(),
  visitId: id('请选择访视').optional(),
  patientId: id('患者不存在').optional(),
  /** Patient number, hospital number, or (with `patient.pii`) name. */
  keyword: z.string().trim().max(50, '关键字不能超过50个字符').optional(),
  /** Due date range. */
  dueFrom: dateString('日期格式不正确').optional(),
  dueTo: dateString('日期格式不正确').optional(),
});
export type TaskFilter = z.input<typeof taskFilter>;

/**
 * `POST followup/task/page` (`followup.list`). `state` per `taskState` on today's Asia/Shanghai date; default order:
 * due and overdue by window end ascending (most urgent first), upcoming by window start, done and lost by the latest
 * close first.
 */
export const taskPageRequest = pageRequest.extend({ ...taskFilter.shape, state: z.enum(TASK_STATES).optional() });
export type TaskPageRequest = z.input<typeof taskPageRequest>;

export const taskListItem = z.object({
  id: z.string(),
  patientId: z.string(),
  patientNo: z.string(),
  /** Masked without `patient.pii`. */
  patientName: z.string(),
  gender: z.string().nullable(),
  /** Masked without `patient.pii`; null when none is on file. */
  phone: z.string().nullable(),
  centerId: z.string(),
  centerName: z.string(),
  planId: z.string(),
  planName: z.string(),
  visitId: z.string(),
  visitName: z.string(),
  contactMethod: z.enum(CONTACT_METHODS),
  dueDate: z.string(),
  windowStart: z.string(),
  windowEnd: z.string(),
  status: z.enum(TASK_STATUSES),
  state: z.enum(TASK_STATES),
  ownerId: z.string().nullable(),
  ownerName: z.string().nullable(),
  attempts: z.number().int(),
  lastContactAt: z.string().nullable(),
  lastOutcome: z.enum(CONTACT_OUTCOMES).nullable(),
  closedAt: z.string().nullable(),
  closedReason: z.string().nullable(),
  rowVersion: z.number().int(),
});
export type TaskListItem = z.infer<typeof taskListItem>;
export const taskPageResponse = page(taskListItem);

/** `POST followup/task/counts` (`followup.list`): per state under the same filters (the worklist's tabs). */
export const taskCountsRequest = taskFilter;
export const taskCountsResponse = z.object({
  due: z.number().int(),
  upcoming: z.number().int(),
  overdue: z.number().int(),
  done: z.number().int(),
  lost: z.number().int(),
  /** Open tasks whose due date is today. */
  dueToday: z.number().int(),
});
export type TaskCounts = z.infer<typeof taskCountsResponse>;

/**
 * `POST followup/task/assign` (`followup.edit`): set the owner of open tasks (null = unassigned). The owner must be an
 * active member of the project (400 '负责人须为项目成员'); closed tasks in the list are skipped.
 */
export const taskAssignRequest = z.object({
  taskIds: z.array(id('随访任务不存在')).min(1, '请选择随访任务').max(500, '一次最多分配500条随访任务'),
  ownerId: id('请选择负责人').nullable(),
});
/** How many open tasks got the owner. */
export const taskAssignResponse = countResponse;

/**
 * `POST followup/task/export` (`followup.list`): the filtered worklist as an Excel file (`随访列表-<date>.xlsx`), at
 * most 10,000 rows; identity data masked without `patient.pii`; audited as an export.
 */
export const taskExportRequest = taskFilter.extend({ state: z.enum(TASK_STATES).optional() });

// ---------------------------------------------------------------------------------------------------------------
// The follow-up record of one task
// ---------------------------------------------------------------------------------------------------------------

export const contactVO = z.object({
  id: z.string(),
  taskId: z.string(),
  contactedAt: z.string(),
  method: z.enum(CONTACT_METHODS),
  outcome: z.enum(CONTACT_OUTCOMES),
  note: z.string().nullable(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
});
export type ContactVO = z.infer<typeof contactVO>;

/** A form of the visit and the record filled for this task (null when not started). */
export const taskFormVO = z.object({
  formKey: z.string(),
  title: z.string(),
  /** The record of this task (repeating forms get one instance per task; other forms are the patient's one record). */
  record: z
    .object({
      id: z.string(),
      instance: z.number().int(),
      versionId: z.string(),
      status: z.enum(['draft', 'submitted', 'verified', 'locked']),
      data: z.record(z.string(), z.unknown()),
      rowVersion: z.number().int(),
      updatedAt: z.string(),
    })
    .nullable(),
});
export type TaskFormVO = z.infer<typeof taskFormVO>;

export const taskDetailVO = z.object({
  task: taskListItem,
  patient: z.object({
    id: z.string(),
    patientNo: z.string(),
    name: z.string(),
    gender: z.string().nullable(),
    birthDate: z.string().nullable(),
    phone: z.string().nullable(),
    enrolDate: z.string().nullable(),
    status: z.string(),
    deathDate: z.string().nullable(),
    deathCause: z.string().nullable(),
    lostAt: z.string().nullable(),
    lostReason: z.string().nullable(),
  }),
  plan: z.object({ id: z.string(), name: z.string(), anchorLabel: z.string().nullable() }),
  visit: visitVO,
  /** Newest first. */
  contacts: z.array(contactVO),
  /** The published version the visit's forms render with (`GET project-form-version/published`). */
  versionId: z.string().nullable(),
  forms: z.array(taskFormVO),
  /** The patient's other tasks of every plan, by due date (a short timeline on the page). */
  otherTasks: z.array(taskListItem.pick({ id: true, planName: true, visitName: true, dueDate: true, state: true })),
});
export type TaskDetailVO = z.infer<typeof taskDetailVO>;

/** `GET followup/task/detail?id=` (`followup.list`). */
export const taskIdQuery = z.object({ id: z.string().max(64, '随访任务不存在') });

/**
 * `POST followup/task/contact` (`followup.edit`): record a contact attempt (append-only). `contactedAt` may not lie in
 * the future (400 '联系时间不能晚于当前时间'). Outcome `deceased` does not close anything by itself: the page then asks
 * for the death date (`followup/patient/death`).
 */
export const contactCreateRequest = z.object({
  taskId: id('随访任务不存在'),
  contactedAt: instantString('请选择联系时间').pipe(z.iso.datetime({ offset: true, message: '请选择联系时间' })),
  method: z.enum(CONTACT_METHODS, '请选择联系方式'),
  outcome: z.enum(CONTACT_OUTCOMES, '请选择联系结果'),
  note: z.string().trim().max(1000, '备注不能超过1000个字符').nullable().optional(),
});
/** The contact as recorded. */
export const contactCreateResponse = contactVO;
export type ContactCreateRequest = z.input<typeof contactCreateRequest>;

/**
 * `POST followup/task/form/save` (`followup.edit`): save (draft) or submit one of the visit's forms through the record
 * writer (same rules as `form-record/save`: hard errors 400 with the field paths, soft ones raise queries, `rowVersion`
 * 409 never overwrites, `reason` required once submitted). 400 '该表单不属于本次访视' for other forms; 409
 * '随访任务已关闭' when the task is not open.
 */
export const taskFormSaveRequest = z.object({
  taskId: id('随访任务不存在'),
  formKey: z.string().max(64),
  /** The version the data was checked against (the detail's `versionId`). */
  versionId: id('表单版本不存在'),
  data: z.record(z.string(), z.unknown()),
  /** Null for a first save. */
  rowVersion: int4({ message: '请提供数据版本' }).nullable(),
  submit: z.boolean().default(false),
  // CHANGE_REASON's limit and message (form-record-codes; a test holds them equal): importing it here would add a
  // chunk to the pages that load this contract.
  reason: z.string().trim().max(500, '修改原因不能超过500个字符').optional(),
});
export type TaskFormSaveRequest = z.input<typeof taskFormSaveRequest>;
/** The form with its record as saved (the detail's `forms` entry). */
export const taskFormSaveResponse = taskFormVO;

/**
 * `POST followup/task/complete` (`followup.edit`): the visit is done. 409 '请先提交本次访视的表单：<titles>' while a
 * visit form is not submitted; 409 '请先记录一次成功联系' when no contact reached the patient and the visit is not an
 * outpatient visit. Closes the task (status `done`).
 */
export const taskCompleteRequest = z.object({
  taskId: id('随访任务不存在'),
  rowVersion: int4({ message: '请提供数据版本' }),
});
/** complete, reopen and lost answer the task as it is afterwards. */
export const taskActionResponse = taskListItem;

/** `POST followup/task/reopen` (`followup.edit`): a done or lost task back to open, with a reason (audited). */
export const taskReopenRequest = z.object({
  taskId: id('随访任务不存在'),
  reason: z.string().trim().min(1, '请输入原因').max(500, '原因不能超过500个字符'),
});

/**
 * `POST followup/task/lost` (`followup.edit`): lost to follow-up. `wholePatient` marks the patient lost (reason and
 * time on the patient) and closes all their open tasks as lost; otherwise only this task.
 */
export const taskLostRequest = z.object({
  taskId: id('随访任务不存在'),
  reason: z.string().trim().min(1, '请输入失访原因').max(500, '失访原因不能超过500个字符'),
  wholePatient: z.boolean().default(false),
});

/**
 * `POST followup/patient/death` (`followup.edit`): the patient died on `deathDate` (not in the future, not before
 * birth) of `cause`. Sets the patient's status to `deceased`, cancels their open tasks ('患者已死亡'), audited.
 */
export const patientDeathRequest = z.object({
  patientId: id('患者不存在'),
  deathDate: clinicalDate('请输入死亡日期'),
  cause: z.string().trim().min(1, '请输入死亡原因').max(500, '死亡原因不能超过500个字符'),
});
/** How many open tasks were cancelled. */
export const patientDeathResponse = countResponse;

/** `GET followup/patient/timeline?patientId=` (`followup.list`): the patient's tasks with their contacts (patient file). */
export const patientTimelineQuery = z.object({ patientId: z.string().max(64, '患者不存在') });
export const patientTimelineResponse = z.array(taskListItem.extend({ contacts: z.array(contactVO) }));
export type PatientTimelineItem = z.infer<typeof patientTimelineResponse>[number];

/** `GET followup/summary` (`followup.list`): the home page's figures. */
export const followupSummaryResponse = z.object({
  dueToday: z.number().int(),
  due: z.number().int(),
  /** Open tasks with a due date from today to today + 6. */
  dueThisWeek: z.number().int(),
  overdue: z.number().int(),
  mineDue: z.number().int(),
  mineOverdue: z.number().int(),
  /** Done tasks / (done + overdue + lost) of the last 365 days, null without any. */
  completionRate: z.number().nullable(),
});
export type FollowupSummary = z.infer<typeof followupSummaryResponse>;
