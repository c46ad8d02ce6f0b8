import { sql } from 'drizzle-orm';
import { check, date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns';
import { tenants, users } from './identity';
import { projects } from './projects';
import { patients } from './patients';

// ---------------------------------------------------------------------------------------------------------------
// Follow-up: plans → visits → per-patient assignments and tasks → contact attempts. Dates of tasks are
// Asia/Shanghai calendar dates computed by `@registry/shared/followup/schedule`.
// ---------------------------------------------------------------------------------------------------------------

export const followupPlans = pgTable(
  'followup_plans',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id),
    name: text('name').notNull(),
    description: text('description'),
    kind: text('kind', { enum: ['relative', 'fixed'] }).notNull(),
    status: text('status', { enum: ['draft', 'active', 'stopped'] })
      .notNull()
      .default('draft'),
    /** Relative plans: `{ type: 'enrol' }` or `{ type: 'field', formKey, fieldKey }` (contract `planAnchor`). */
    anchor: jsonb('anchor'),
    /** Fixed periodic plans: the period the visits were generated from (contract `planPeriod`). */
    period: jsonb('period'),
    assignMode: text('assign_mode', { enum: ['manual', 'auto'] })
      .notNull()
      .default('manual'),
    /** Contract `planRule`. */
    rule: jsonb('rule'),
    remindDaysBefore: integer('remind_days_before').notNull().default(0),
    defaultOwnerId: uuid('default_owner_id').references(() => users.id),
    rowVersion: integer('row_version').notNull().default(1),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: createdAt(),
    updatedBy: uuid('updated_by').references(() => users.id),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('followup_plans_project_name_uq')
      .on(t.projectId, t.name)
      .where(sql`${t.deletedAt} is null`),
    index('followup_plans_tenant_project_idx').on(t.tenantId, t.projectId),
    check('followup_plans_kind_ck', sql`${t.kind} in ('relative', 'fixed')`),
    check('followup_plans_status_ck', sql`${t.status} in ('draft', 'active', 'stopped')`),
    check('followup_plans_assign_mode_ck', sql`${t.assignMode} in ('manual', 'auto')`),
  ],
);

/** A visit of a plan. Removed visits are kept (`deleted_at`) because their closed tasks point at them. */
export const followupVisits = pgTable(
  'followup_visits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    planId: uuid('plan_id')
      .notNull()
      .references(() => followupPlans.id),
    seq: integer('seq').notNull(),
    name: text('name').notNull(),
    offset: integer('offset'),
    offsetUnit: text('offset_unit', { enum: ['day', 'week', 'month', 'year'] }),
    fixedDate: date('fixed_date', { mode: 'string' }),
    windowBefore: integer('window_before').notNull().default(0),
    windowAfter: integer('window_after').notNull().default(0),
    formKeys: jsonb('form_keys')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    contactMethod: text('contact_method').notNull().default('phone'),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('followup_visits_plan_idx').on(t.planId, t.seq),
    check('followup_visits_window_ck', sql`${t.windowBefore} >= 0 and ${t.windowAfter} >= 0`),
  ],
);

/** A patient following a plan (by rule or by hand); `anchor_date` is the date the patient's tasks were computed from. */
export const followupAssignments = pgTable(
  'followup_assignments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id),
    planId: uuid('plan_id')
      .notNull()
      .references(() => followupPlans.id),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    source: text('source', { enum: ['rule', 'manual'] }).notNull(),
    status: text('status', { enum: ['active', 'stopped'] })
      .notNull()
      .default('active'),
    stoppedReason: text('stopped_reason'),
    anchorDate: date('anchor_date', { mode: 'string' }),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('followup_assignments_plan_patient_uq').on(t.planId, t.patientId),
    index('followup_assignments_patient_idx').on(t.tenantId, t.patientId),
    check('followup_assignments_source_ck', sql`${t.source} in ('rule', 'manual')`),
    check('followup_assignments_status_ck', sql`${t.status} in ('active', 'stopped')`),
  ],
);

/** One visit of one patient: what the worklist shows. `reminded_at` makes the reminder job notify a task once. */
export const followupTasks = pgTable(
  'followup_tasks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    planId: uuid('plan_id')
      .notNull()
      .references(() => followupPlans.id),
    visitId: uuid('visit_id')
      .notNull()
      .references(() => followupVisits.id),
    assignmentId: uuid('assignment_id')
      .notNull()
      .references(() => followupAssignments.id),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    windowStart: date('window_start', { mode: 'string' }).notNull(),
    windowEnd: date('window_end', { mode: 'string' }).notNull(),
    status: text('status', { enum: ['open', 'done', 'lost', 'cancelled'] })
      .notNull()
      .default('open'),
    ownerId: uuid('owner_id').references(() => users.id),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closedBy: uuid('closed_by').references(() => users.id),
    /** Why a task was lost or cancelled. */
    closedReason: text('closed_reason'),
    remindedAt: timestamp('reminded_at', { withTimezone: true }),
    rowVersion: integer('row_version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('followup_tasks_assignment_visit_uq').on(t.assignmentId, t.visitId),
    index('followup_tasks_worklist_idx').on(t.tenantId, t.projectId, t.status, t.windowEnd),
    index('followup_tasks_owner_idx').on(t.tenantId, t.projectId, t.ownerId, t.status),
    index('followup_tasks_patient_idx').on(t.tenantId, t.patientId, t.dueDate),
    index('followup_tasks_remind_idx')
      .on(t.windowStart)
      .where(sql`${t.status} = 'open' and ${t.remindedAt} is null`),
    check('followup_tasks_status_ck', sql`${t.status} in ('open', 'done', 'lost', 'cancelled')`),
    check('followup_tasks_window_ck', sql`${t.windowStart} <= ${t.dueDate} and ${t.dueDate} <= ${t.windowEnd}`),
  ],
);

/** A contact attempt of a task. Append-only (trigger). */
export const followupContacts = pgTable(
  'followup_contacts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    taskId: uuid('task_id')
      .notNull()
      .references(() => followupTasks.id),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    contactedAt: timestamp('contacted_at', { withTimezone: true }).notNull(),
    method: text('method').notNull(),
    outcome: text('outcome', { enum: ['reached', 'no_answer', 'wrong_number', 'refused', 'deceased'] }).notNull(),
    note: text('note'),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    index('followup_contacts_task_idx').on(t.taskId, t.contactedAt),
    check(
      'followup_contacts_outcome_ck',
      sql`${t.outcome} in ('reached', 'no_answer', 'wrong_number', 'refused', 'deceased')`,
    ),
  ],
);
