import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { CohortDefinition } from '@registry/shared/cohort/definition';
import { createdAt, updatedAt } from './columns';
import { tenants, users } from './identity';
import { projects } from './projects';
import { patients } from './patients';

// ---------------------------------------------------------------------------------------------------------------
// Retrieval: saved cohort queries (issue 15)
// ---------------------------------------------------------------------------------------------------------------

/**
 * A saved cohort query of a project (a sub-project has its own): its owner's alone, or shared with the project's
 * members who may retrieve. The definition is the shared contract's JSON (`cohortDefinition`), checked against the
 * published forms when saved and again whenever it runs. Removed softly (`deleted_at`); a name is unique among the
 * owner's live queries of the project whatever its letters' case.
 */
export const retrievalQueries = pgTable(
  'retrieval_queries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    description: text('description'),
    shared: boolean('shared').notNull().default(false),
    definition: jsonb('definition').$type<CohortDefinition>().notNull(),
    rowVersion: integer('row_version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    updatedBy: uuid('updated_by').references(() => users.id),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('retrieval_queries_owner_name_uq')
      .on(t.tenantId, t.projectId, t.ownerId, sql`lower(${t.name})`)
      .where(sql`${t.deletedAt} is null`),
    index('retrieval_queries_project_idx').on(t.tenantId, t.projectId),
    check('retrieval_queries_name_ck', sql`length(${t.name}) between 1 and 100`),
  ],
);

// ---------------------------------------------------------------------------------------------------------------
// Exports (issue 15): the jobs and the study pseudonyms of de-identified exports
// ---------------------------------------------------------------------------------------------------------------

/**
 * A data export of a project: what was asked (the saved query's definition as it was then, the format, the forms and
 * fields, de-identification), the scope it runs in (the session's when it was asked: project, top-level project,
 * center) and what came of it (the pg-boss job, state, rows, file, checksum). The file lives in the object storage under
 * `file_key` until `expires_at`; the expiry job removes it and marks the export expired.
 */
export const exportJobs = pgTable(
  'export_jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id),
    rootProjectId: uuid('root_project_id')
      .notNull()
      .references(() => projects.id),
    /** The member's center when it was asked (null: all centers). */
    centerId: uuid('center_id'),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    /** The pg-boss job that writes it. */
    jobId: uuid('job_id'),
    queryId: uuid('query_id').references(() => retrievalQueries.id),
    queryName: text('query_name'),
    /** The saved query's cohort when the export was asked (null: every patient of the scope). */
    cohort: jsonb('cohort').$type<CohortDefinition>(),
    format: text('format').notNull(),
    valueMode: text('value_mode').notNull(),
    /** The chosen forms and fields (null: all). */
    forms: jsonb('forms').$type<{ key: string; fields?: string[] }[]>(),
    deidentified: boolean('deidentified').notNull(),
    dropFreeText: boolean('drop_free_text').notNull().default(false),
    state: text('state').notNull().default('queued'),
    progress: integer('progress').notNull().default(0),
    rowCount: integer('row_count'),
    fileKey: text('file_key'),
    fileName: text('file_name'),
    fileSize: bigint('file_size', { mode: 'number' }),
    sha256: text('sha256'),
    error: text('error'),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [
    index('export_jobs_project_idx').on(t.tenantId, t.projectId, t.createdAt),
    index('export_jobs_expiry_idx')
      .on(t.expiresAt)
      .where(sql`${t.state} = 'completed'`),
    check(
      'export_jobs_state_ck',
      sql`${t.state} in ('queued', 'running', 'completed', 'failed', 'cancelled', 'expired')`,
    ),
    check('export_jobs_format_ck', sql`${t.format} in ('csv', 'xlsx', 'spss', 'stata', 'sas', 'r', 'odm')`),
    check('export_jobs_value_mode_ck', sql`${t.valueMode} in ('codes', 'labels')`),
  ],
);

/**
 * The study pseudonym and date shift of a patient in de-identified exports, made the first time the patient is
 * exported de-identified and kept, so that every export of that patient agrees (the shift keeps intervals between a
 * patient's dates). It is the re-identification key: only the server reads it, no call shows it.
 */
export const exportPseudonyms = pgTable(
  'export_pseudonyms',
  {
    patientId: uuid('patient_id')
      .primaryKey()
      .references(() => patients.id),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    /** The top-level project: a pseudonym is unique in it. */
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id),
    pseudonym: text('pseudonym').notNull(),
    /** Days every date of the patient is moved back: 0–364, as REDCap's date shifting. */
    shiftDays: integer('shift_days').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('export_pseudonyms_project_pseudonym_uq').on(t.projectId, t.pseudonym),
    check('export_pseudonyms_shift_ck', sql`${t.shiftDays} between 0 and 364`),
  ],
);
