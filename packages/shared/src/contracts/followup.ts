/**
 * Follow-up: plans → visits → per-patient tasks → contact attempts and the visit's form records. Base
 * `followup`. Scope as everywhere: tenant, current project and the center rule come from the session; ids outside
 * the scope answer 404 like missing ids.
 *
 * - A **plan** is relative (visits at an offset from an anchor date: enrolment or a date field of the CRF) or fixed
 *   (visits on calendar dates, given one by one or as a period: every N months, M times). Each visit has a window
 *   (−windowBefore/+windowAfter days around its due date), the forms to fill and the contact method.
 * - A plan is `draft` (editable, follows nobody), `active` (assigns patients and generates tasks) or `stopped`.
 * - **Assignments** attach a plan to patients by rule (`assignMode: 'auto'`: the plan's sub-projects and/or a field
 *   value, applied on activation, on `plan/apply` and whenever a patient or record changes) or by hand. When a
 *   patient or record change makes a patient no longer match, their rule assignment stops ('不再符合分配规则', open
 *   tasks cancelled with that reason) and resumes when they match again (those tasks re-open with fresh dates);
 *   assignments by hand never stop by the rule.
 * - A patient made `deceased` by any call gets their open tasks cancelled ('患者已死亡'); a deleted patient too
 *   ('患者已删除'), and their assignments stop. Done and lost tasks stay.
 * - **Tasks**: one per assignment and visit; dates follow the schedule arithmetic of `followup/schedule.ts` (Asia/
 *   Shanghai calendar dates). An anchor change re-schedules open tasks; done, lost and cancelled tasks never change.
 */

// The contract in two modules: plans and assignments (followup-plan.ts), tasks and their records (followup-task.ts).
// Callers import all of it from here. The codes live without zod (the web's list and record pages import them from
// there); the contract re-exports them.
export * from './followup-codes';
export * from './followup-plan';
export * from './followup-task';
export { OFFSET_UNITS, TASK_STATES, TASK_STATUSES } from '../followup/schedule';
export type { OffsetUnit, TaskState } from '../followup/schedule';
