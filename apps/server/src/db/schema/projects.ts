import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns';
import { organisations, roles, tenants, users } from './identity';

// ---------------------------------------------------------------------------------------------------------------
// Projects and memberships
// ---------------------------------------------------------------------------------------------------------------

export const projects = pgTable(
  'projects',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    parentId: uuid('parent_id'),
    code: text('code').notNull(),
    name: text('name').notNull(),
    diseaseArea: text('disease_area'),
    description: text('description'),
    status: text('status', { enum: ['draft', 'active', 'locked', 'archived'] })
      .notNull()
      .default('draft'),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // a code is unique within its tenant whatever its letters' case ('HF-REG' and 'hf-reg' are one code)
    uniqueIndex('projects_tenant_code_ci_uq').on(t.tenantId, sql`lower(${t.code})`),
    index('projects_tenant_parent_idx').on(t.tenantId, t.parentId),
    index('projects_tenant_owner_idx').on(t.tenantId, t.ownerId),
    check('projects_status_ck', sql`${t.status} in ('draft', 'active', 'locked', 'archived')`),
  ],
);

/** A user's role in a project; `center_id` null = all centers. */
export const projectMembers = pgTable(
  'project_members',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id),
    /** null = all centers; else a center of the project (or of its parent, for a sub-project). */
    centerId: uuid('center_id').references(() => centers.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('project_members_project_user_uq').on(t.tenantId, t.projectId, t.userId),
    index('project_members_user_idx').on(t.userId),
  ],
);

/**
 * A project's centers (sub-centers, sites). Sub-projects use their parent's centers; every patient belongs to one.
 * The default center (the project's own hospital) is created with the project.
 */
export const centers = pgTable(
  'centers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id),
    code: text('code').notNull(),
    name: text('name').notNull(),
    leadUserId: uuid('lead_user_id').references(() => users.id),
    status: text('status', { enum: ['active', 'closed'] })
      .notNull()
      .default('active'),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // a center code is unique within its project whatever its letters' case
    uniqueIndex('centers_project_code_ci_uq').on(t.tenantId, t.projectId, sql`lower(${t.code})`),
    index('centers_tenant_project_idx').on(t.tenantId, t.projectId),
    check('centers_status_ck', sql`${t.status} in ('active', 'closed')`),
  ],
);
