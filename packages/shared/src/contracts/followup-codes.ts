/**
 * The codes and labels of the follow-up contract (`followup.ts`), without its zod schemas: the web imports them from
 * here, so a page that shows a contact method or a follow-up status does not load zod. `followup.ts` re-exports them.
 */
export const PLAN_KINDS = ['relative', 'fixed'] as const;
export type PlanKind = (typeof PLAN_KINDS)[number];
export const PLAN_KIND_LABELS: Readonly<Record<PlanKind, string>> = { relative: '相对随访计划', fixed: '固定随访计划' };

export const PLAN_STATUSES = ['draft', 'active', 'stopped'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];
export const PLAN_STATUS_LABELS: Readonly<Record<PlanStatus, string>> = {
  draft: '草稿',
  active: '启用中',
  stopped: '已停用',
};

export const ASSIGN_MODES = ['manual', 'auto'] as const;
export type AssignMode = (typeof ASSIGN_MODES)[number];
export const ASSIGN_MODE_LABELS: Readonly<Record<AssignMode, string>> = { manual: '手动分配', auto: '按规则自动分配' };

export const CONTACT_METHODS = ['phone', 'outpatient', 'sms', 'wechat', 'home_visit', 'mail'] as const;
export type ContactMethod = (typeof CONTACT_METHODS)[number];
export const CONTACT_METHOD_LABELS: Readonly<Record<ContactMethod, string>> = {
  phone: '电话',
  outpatient: '门诊',
  sms: '短信',
  wechat: '微信',
  home_visit: '家访',
  mail: '信函',
};

export const CONTACT_OUTCOMES = ['reached', 'no_answer', 'wrong_number', 'refused', 'deceased'] as const;
export type ContactOutcome = (typeof CONTACT_OUTCOMES)[number];
export const CONTACT_OUTCOME_LABELS: Readonly<Record<ContactOutcome, string>> = {
  reached: '已联系上',
  no_answer: '无人接听',
  wrong_number: '号码错误',
  refused: '拒绝随访',
  deceased: '已死亡',
};

/**
 * The patient list's follow-up status filter (`patient-info/page` `followupStatus`): `overdue` (an open task past its
 * window), `due` (an open task in its window, none overdue), `on_track` (open tasks, none due or overdue), `lost`
 * (the patient is lost to follow-up), `none` (no plan).
 */
export const PATIENT_FOLLOWUP_STATUSES = ['overdue', 'due', 'on_track', 'lost', 'none'] as const;
export type PatientFollowupStatus = (typeof PATIENT_FOLLOWUP_STATUSES)[number];
export const PATIENT_FOLLOWUP_STATUS_LABELS: Readonly<Record<PatientFollowupStatus, string>> = {
  overdue: '有超窗随访',
  due: '待随访',
  on_track: '随访中',
  lost: '失访',
  none: '无随访计划',
};
