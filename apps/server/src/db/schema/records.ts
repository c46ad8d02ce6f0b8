import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns';
import { tenants, users } from './identity';
import { projects } from './projects';
import { files } from './files';
import { formVersions } from './crf-definition';
import { patients } from './patients';
import { followupTasks } from './followup';

/**
 * Entered CRF data: one row per patient, form and instance (repeatable forms have instances 1..n). Written by the
 * patient pages; the publish check counts the data a breaking change would orphan.
 */
export const formRecords = pgTable(
  'form_records',
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
    formKey: text('form_key').notNull(),
    instance: integer('instance').notNull().default(1),
    /** The definition version the data was entered with. */
    versionId: uuid('version_id')
      .notNull()
      .references(() => formVersions.id),
    data: jsonb('data')
      .notNull()
      .default(sql`'{}'::jsonb`),
    status: text('status', { enum: ['draft', 'submitted', 'verified', 'locked'] })
      .notNull()
      .default('draft'),
    rowVersion: integer('row_version').notNull().default(1),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: createdAt(),
    updatedBy: uuid('updated_by').references(() => users.id),
    updatedAt: updatedAt(),
    submittedBy: uuid('submitted_by').references(() => users.id),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    verifiedBy: uuid('verified_by').references(() => users.id),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    lockedBy: uuid('locked_by').references(() => users.id),
    lockedAt: timestamp('locked_at', { withTimezone: true }),
    /** A removed instance of a repeating form (never hard-deleted; its number is not reused). */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    deleteReason: text('delete_reason'),
    /** The follow-up task this record was filled for, or null for a record of the patient pages. */
    followupTaskId: uuid('followup_task_id').references((): AnyPgColumn => followupTasks.id),
  },
  (t) => [
    index('form_records_followup_task_idx')
      .on(t.followupTaskId)
      .where(sql`${t.followupTaskId} is not null`),
    uniqueIndex('form_records_patient_form_instance_uq').on(t.tenantId, t.patientId, t.formKey, t.instance),
    index('form_records_project_form_idx').on(t.tenantId, t.projectId, t.formKey),
    index('form_records_version_idx').on(t.versionId),
    index('form_records_data_gin').using('gin', t.data),
    check('form_records_status_ck', sql`${t.status} in ('draft', 'submitted', 'verified', 'locked')`),
    check('form_records_instance_ck', sql`${t.instance} >= 1`),
  ],
);

// ---------------------------------------------------------------------------------------------------------------
// Data-point history, source data verification, queries, imports and saved page layouts
// ---------------------------------------------------------------------------------------------------------------

export const VALUE_SOURCE_TYPES = ['manual', 'import', 'recognition', 'api', 'calc'] as const;

/**
 * Every version of every data point of a CRF record: one row per changed leaf path (`weight`, or a group row's cell
 * `meds.2.dose`) per save, with who, when, why and where the value came from. Append-only (a trigger refuses UPDATE
 * and DELETE). `/patient/source` and the field history of the edit page read it.
 */
export const recordValueVersions = pgTable(
  'record_value_versions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    recordId: uuid('record_id')
      .notNull()
      .references(() => formRecords.id),
    /** `weight`, or `meds.2.dose` (0-based row index, the engine's paths). */
    path: text('path').notNull(),
    /** The value after the change; null when it was cleared. */
    value: jsonb('value'),
    reason: text('reason'),
    sourceType: text('source_type', { enum: VALUE_SOURCE_TYPES }).notNull(),
    /** import: `{ batchId, fileName, row }`; recognition: `{ documentId, page, box }`. */
    sourceRef: jsonb('source_ref'),
    /** The record's `row_version` this change produced. */
    recordRowVersion: integer('record_row_version').notNull(),
    actorId: uuid('actor_id').references(() => users.id),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('record_value_versions_record_path_idx').on(t.recordId, t.path, t.id),
    index('record_value_versions_tenant_patient_idx').on(t.tenantId, t.patientId),
    check(
      'record_value_versions_source_ck',
      sql`${t.sourceType} in ('manual', 'import', 'recognition', 'api', 'calc')`,
    ),
  ],
);

/**
 * Source data verification: a monitor confirmed one version of a data point against the source. A data point is
 * verified while its latest version carries a mark; a later change leaves the mark on the old version.
 */
export const sdvMarks = pgTable(
  'sdv_marks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    recordId: uuid('record_id')
      .notNull()
      .references(() => formRecords.id),
    path: text('path').notNull(),
    valueVersionId: bigint('value_version_id', { mode: 'number' })
      .notNull()
      .references(() => recordValueVersions.id),
    verifiedBy: uuid('verified_by')
      .notNull()
      .references(() => users.id),
    verifiedAt: timestamp('verified_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('sdv_marks_version_uq').on(t.valueVersionId),
    index('sdv_marks_record_path_idx').on(t.recordId, t.path),
  ],
);

export const QUERY_STATUSES = ['open', 'answered', 'closed'] as const;

/**
 * A query (data clarification) on one data point: raised by a soft validation when a record is saved (`auto`, closed by
 * itself when the value no longer triggers it) or by a monitor (`manual`); answered by the site, closed by the monitor.
 */
export const dataQueries = pgTable(
  'data_queries',
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
    recordId: uuid('record_id')
      .notNull()
      .references(() => formRecords.id),
    path: text('path').notNull(),
    origin: text('origin', { enum: ['auto', 'manual'] }).notNull(),
    message: text('message').notNull(),
    status: text('status', { enum: QUERY_STATUSES }).notNull().default('open'),
    raisedBy: uuid('raised_by').references(() => users.id),
    raisedAt: timestamp('raised_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * Whose data it is: the user who last wrote the data point when the query was raised (else the record's
     * author); notified of the query, and whose 指派给我 list holds it. An auto query: the user whose save raised it.
     */
    assignedTo: uuid('assigned_to').references(() => users.id),
    answer: text('answer'),
    answeredBy: uuid('answered_by').references(() => users.id),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    closedBy: uuid('closed_by').references(() => users.id),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closeNote: text('close_note'),
  },
  (t) => [
    index('data_queries_record_idx').on(t.recordId, t.path),
    index('data_queries_tenant_project_status_idx').on(t.tenantId, t.projectId, t.status),
    index('data_queries_assigned_idx').on(t.assignedTo, t.status),
    index('data_queries_raised_by_idx').on(t.raisedBy, t.status),
    check('data_queries_origin_ck', sql`${t.origin} in ('auto', 'manual')`),
    check('data_queries_status_ck', sql`${t.status} in ('open', 'answered', 'closed')`),
  ],
);

/** An Excel import of patients and CRF data: committed all or nothing; each imported value points at its row. */
export const importBatches = pgTable(
  'import_batches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id),
    /** The uploaded workbook, kept for tracing. */
    fileId: uuid('file_id').references(() => files.id),
    fileName: text('file_name').notNull(),
    versionId: uuid('version_id')
      .notNull()
      .references(() => formVersions.id),
    rowCount: integer('row_count').notNull(),
    createdPatients: integer('created_patients').notNull(),
    updatedPatients: integer('updated_patients').notNull(),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [index('import_batches_tenant_project_idx').on(t.tenantId, t.projectId, t.createdAt)],
);

/** A user's saved layout of a page's table (`page-config-custom`): columns shown, their order and widths. */
export const pageConfigs = pgTable(
  'page_configs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** The project the layout belongs to (CRF columns differ by project); null for pages outside a project. */
    projectId: uuid('project_id').references(() => projects.id),
    pageKey: text('page_key').notNull(),
    config: jsonb('config').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [unique('page_configs_user_project_page_uq').on(t.userId, t.projectId, t.pageKey).nullsNotDistinct()],
);
