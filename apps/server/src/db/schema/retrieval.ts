import { sql } from 'drizzle-orm';
import {
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
