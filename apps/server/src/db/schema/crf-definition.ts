import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { updatedAt } from './columns';
import { tenants, users } from './identity';
import { projects } from './projects';

// ---------------------------------------------------------------------------------------------------------------
// The project database: form definition draft and immutable versions, entered CRF records, dictionaries,
// administrative areas. The definition document is validated by `@registry/shared/forms/definition` (ADR 0002).
// ---------------------------------------------------------------------------------------------------------------

/** A project's working copy of its form definition: one row per project, created lazily on first read. */
export const formDrafts = pgTable(
  'form_drafts',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    projectId: uuid('project_id')
      .primaryKey()
      .references(() => projects.id),
    definition: jsonb('definition').notNull(),
    /** Bumped by every save; a save names the revision it started from (optimistic locking). */
    revision: integer('revision').notNull().default(0),
    updatedBy: uuid('updated_by').references(() => users.id),
    updatedAt: updatedAt(),
  },
  (t) => [index('form_drafts_tenant_idx').on(t.tenantId)],
);

/**
 * Published versions of a project's form definition. Immutable: a trigger refuses UPDATE and DELETE (migration 0009).
 * Records keep the version they were entered with.
 */
export const formVersions = pgTable(
  'form_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id),
    versionNo: integer('version_no').notNull(),
    definition: jsonb('definition').notNull(),
    /** The changes against the previous version (`DefinitionChange[]` of the engine's `diffDefinitions`). */
    changes: jsonb('changes').notNull(),
    note: text('note'),
    publishedBy: uuid('published_by')
      .notNull()
      .references(() => users.id),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('form_versions_project_no_uq').on(t.projectId, t.versionNo),
    index('form_versions_tenant_project_idx').on(t.tenantId, t.projectId),
  ],
);
