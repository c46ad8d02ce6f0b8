import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns';

// ---------------------------------------------------------------------------------------------------------------
// Identity: tenants, organisations (hospitals), departments, users, roles
// ---------------------------------------------------------------------------------------------------------------

export const tenants = pgTable(
  'tenants',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    type: text('type', { enum: ['SYSTEM', 'HOSPITAL', 'PERSONAL'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('tenants_code_uq').on(t.code),
    check('tenants_type_ck', sql`${t.type} in ('SYSTEM', 'HOSPITAL', 'PERSONAL')`),
  ],
);

export const organisations = pgTable(
  'organisations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('organisations_tenant_idx').on(t.tenantId)],
);

export const departments = pgTable(
  'departments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('departments_tenant_org_idx').on(t.tenantId, t.organisationId)],
);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The home tenant. */
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    organisationId: uuid('organisation_id').references(() => organisations.id),
    departmentId: uuid('department_id').references(() => departments.id),
    username: text('username').notNull(),
    name: text('name').notNull(),
    phone: text('phone'),
    /** A file id of the user's upload, or an external URL. */
    avatar: text('avatar'),
    passwordHash: text('password_hash').notNull(),
    initPwd: boolean('init_pwd').notNull().default(false),
    userType: text('user_type').notNull().default('USER'),
    tenantRoleCode: text('tenant_role_code').notNull(),
    disabled: boolean('disabled').notNull().default(false),
    failedLogins: integer('failed_logins').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_username_lower_uq').on(sql`lower(${t.username})`),
    uniqueIndex('users_phone_uq').on(t.phone),
    index('users_tenant_idx').on(t.tenantId),
  ],
);

/**
 * Roles: built-ins have no tenant and no project; a tenant or a project may add its own. The permission codes
 * are those of `@registry/shared/permissions`.
 */
export const roles = pgTable(
  'roles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').references(() => tenants.id),
    projectId: uuid('project_id'),
    code: text('code').notNull(),
    name: text('name').notNull(),
    scope: text('scope', { enum: ['tenant', 'project'] }).notNull(),
    builtIn: boolean('built_in').notNull().default(false),
    permissions: text('permissions')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('roles_scope_code_uq').on(
      sql`coalesce(${t.tenantId}, '00000000-0000-0000-0000-000000000000'::uuid)`,
      sql`coalesce(${t.projectId}, '00000000-0000-0000-0000-000000000000'::uuid)`,
      t.code,
    ),
  ],
);
