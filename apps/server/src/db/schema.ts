/**
 * The one Drizzle schema of the registry. Every table of tenant data leads with `tenant_id`; ids are uuids; times are
 * `timestamptz`. Migrations in `../../drizzle` are generated from this file (`npx drizzle-kit generate`).
 */
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  smallint,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

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
 * Roles: built-ins have no tenant and no project; a tenant or a project may add its own (issue 3). The permission codes
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
    uniqueIndex('projects_tenant_code_uq').on(t.tenantId, t.code),
    index('projects_tenant_parent_idx').on(t.tenantId, t.parentId),
    index('projects_tenant_owner_idx').on(t.tenantId, t.ownerId),
    check('projects_status_ck', sql`${t.status} in ('draft', 'active', 'locked', 'archived')`),
  ],
);

/** A user's role in a project; `center_id` null = all centers (centers arrive with issue 3). */
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
    uniqueIndex('centers_project_code_uq').on(t.tenantId, t.projectId, t.code),
    index('centers_tenant_project_idx').on(t.tenantId, t.projectId),
    check('centers_status_ck', sql`${t.status} in ('active', 'closed')`),
  ],
);

// ---------------------------------------------------------------------------------------------------------------
// Menu (seeded data, filtered by permission)
// ---------------------------------------------------------------------------------------------------------------

export const menuItems = pgTable(
  'menu_items',
  {
    id: text('id').primaryKey(),
    groupCode: text('group_code').notNull(),
    parentId: text('parent_id'),
    type: text('type', { enum: ['1', '2'] }).notNull(),
    name: text('name').notNull(),
    icon: text('icon'),
    href: text('href'),
    sort: integer('sort').notNull().default(0),
    showFlag: boolean('show_flag').notNull().default(true),
    /** The permission code needed to see the item; null = every signed-in user. */
    permission: text('permission'),
  },
  (t) => [index('menu_items_group_idx').on(t.groupCode, t.sort)],
);

// ---------------------------------------------------------------------------------------------------------------
// Sign-in: sessions, attempts, captchas, SMS codes and outbox, QR sign-in
// ---------------------------------------------------------------------------------------------------------------

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** sha256 (hex) of the opaque token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    /** The acting tenant (a system administrator may switch it). */
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    /** The current project, chosen with `web-project/change`. */
    projectId: uuid('project_id'),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [uniqueIndex('sessions_token_hash_uq').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

/**
 * Support access (issue 12): a tenant's own administrator lets the system administrators see and change its patient
 * data, unmasked, until `expires_at` (1–72 hours) or until revoked. Without an active grant a system administrator
 * switched into the tenant reads patient data masked and cannot change it (`modules/auth/acting-permissions.ts`).
 */
export const supportAccessGrants = pgTable(
  'support_access_grants',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    grantedBy: uuid('granted_by')
      .notNull()
      .references(() => users.id),
    grantedAt: timestamp('granted_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    reason: text('reason'),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: uuid('revoked_by').references(() => users.id),
  },
  (t) => [
    index('support_access_grants_tenant_idx').on(t.tenantId, t.expiresAt),
    check('support_access_grants_window_ck', sql`${t.expiresAt} > ${t.grantedAt}`),
  ],
);

export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    username: text('username').notNull(),
    ip: text('ip'),
    success: boolean('success').notNull(),
    reason: text('reason').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('login_attempts_username_at_idx').on(t.username, t.at),
    // the per-IP throttle counts an address's recent failures
    index('login_attempts_ip_at_idx').on(t.ip, t.at),
  ],
);

export const captchas = pgTable('captchas', {
  key: text('key').primaryKey(),
  answerHash: text('answer_hash').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: createdAt(),
});

export const smsCodes = pgTable(
  'sms_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    phone: text('phone').notNull(),
    codeHash: text('code_hash').notNull(),
    purpose: text('purpose').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('sms_codes_phone_idx').on(t.phone, t.createdAt)],
);

/** What the default SMS provider "sent": read by operators and tests instead of a real gateway. */
export const smsOutbox = pgTable(
  'sms_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    phone: text('phone').notNull(),
    message: text('message').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('sms_outbox_phone_idx').on(t.phone, t.createdAt)],
);

export const qrLogins = pgTable(
  'qr_logins',
  {
    key: text('key').primaryKey(),
    state: text('state', { enum: ['pending', 'scanned', 'confirmed', 'expired'] })
      .notNull()
      .default('pending'),
    userId: uuid('user_id').references(() => users.id),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [check('qr_logins_state_ck', sql`${t.state} in ('pending', 'scanned', 'confirmed', 'expired')`)],
);

// ---------------------------------------------------------------------------------------------------------------
// Files
// ---------------------------------------------------------------------------------------------------------------

export const files = pgTable(
  'files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id),
    /** Random key in the file storage; the original name is never used as a path. */
    storageKey: text('storage_key').notNull(),
    originalName: text('original_name').notNull(),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    purpose: text('purpose').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('files_tenant_owner_idx').on(t.tenantId, t.ownerId),
    uniqueIndex('files_storage_key_uq').on(t.storageKey),
  ],
);

// ---------------------------------------------------------------------------------------------------------------
// Audit (append-only: a trigger refuses UPDATE, DELETE and TRUNCATE; hash-chained per tenant by another trigger)
// ---------------------------------------------------------------------------------------------------------------

export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The acting tenant (null only for events before a tenant is known, e.g. a failed sign-in). */
    tenantId: uuid('tenant_id'),
    actorId: uuid('actor_id'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id'),
    oldValue: jsonb('old_value'),
    newValue: jsonb('new_value'),
    reason: text('reason'),
    requestId: text('request_id'),
    ip: text('ip'),
    /** Hash of the previous event of the same tenant (null for its first), set by a database trigger. */
    prevHash: text('prev_hash'),
    /** sha256 over prev_hash and this event's fields, set by the trigger: an edited or removed event breaks the chain. */
    hash: text('hash'),
  },
  (t) => [
    uniqueIndex('audit_events_hash_uq').on(t.hash),
    index('audit_events_tenant_at_idx').on(t.tenantId, t.at),
    index('audit_events_entity_idx').on(t.entityType, t.entityId),
  ],
);

// ---------------------------------------------------------------------------------------------------------------
// Join requests: a tenant user asks to join a project; its owner (or a permission.manage holder) decides
// ---------------------------------------------------------------------------------------------------------------

export const joinRequests = pgTable(
  'join_requests',
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
    message: text('message'),
    status: text('status', { enum: ['pending', 'approved', 'refused'] })
      .notNull()
      .default('pending'),
    reason: text('reason'),
    roleId: uuid('role_id').references(() => roles.id),
    centerId: uuid('center_id').references(() => centers.id),
    decidedBy: uuid('decided_by').references(() => users.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    /** One pending request per user and project. */
    uniqueIndex('join_requests_pending_uq')
      .on(t.tenantId, t.projectId, t.userId)
      .where(sql`${t.status} = 'pending'`),
    index('join_requests_tenant_project_idx').on(t.tenantId, t.projectId, t.createdAt),
    index('join_requests_user_idx').on(t.userId, t.createdAt),
    check('join_requests_status_ck', sql`${t.status} in ('pending', 'approved', 'refused')`),
  ],
);

// ---------------------------------------------------------------------------------------------------------------
// The project database (issue 4): form definition draft and immutable versions, entered CRF records, dictionaries,
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

// ---------------------------------------------------------------------------------------------------------------
// Patients (issue 5). Identity number and phone are stored only as AES-256-GCM ciphertext (`lib/phi-crypto.ts`) with a
// keyed blind index (HMAC-SHA256) for exact search and duplicate detection. Patients are never hard-deleted.
// ---------------------------------------------------------------------------------------------------------------

export const PATIENT_STATUS_CODES = ['screening', 'enrolled', 'withdrawn', 'completed', 'deceased'] as const;

export const patients = pgTable(
  'patients',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    /** The top-level project (a sub-project's patients belong to its parent and carry `sub_project_id`). */
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id),
    /** The sub-project cohort, or null for a patient of the parent only. */
    subProjectId: uuid('sub_project_id').references(() => projects.id),
    centerId: uuid('center_id')
      .notNull()
      .references(() => centers.id),
    /** Project-wide sequence number behind `patient_no`. */
    seq: integer('seq').notNull(),
    /** `<center code>-<project sequence, 4+ digits>`, e.g. `C01-0001`; unique in the project, never reused. */
    patientNo: text('patient_no').notNull(),
    name: text('name').notNull(),
    /** GB/T 2261.1: 0 unknown, 1 male, 2 female, 9 unspecified. */
    gender: text('gender'),
    birthDate: date('birth_date', { mode: 'string' }),
    hospitalNo: text('hospital_no'),
    /** `v1:<iv>:<tag>:<ciphertext>` (base64), see `lib/phi-crypto.ts`. */
    idNumberEnc: text('id_number_enc'),
    idNumberBi: text('id_number_bi'),
    phoneEnc: text('phone_enc'),
    phoneBi: text('phone_bi'),
    enrolDate: date('enrol_date', { mode: 'string' }),
    status: text('status', { enum: PATIENT_STATUS_CODES }).notNull().default('screening'),
    /** Recorded by follow-up (issue 6, `followup/patient/death`), with the status `deceased`. */
    deathDate: date('death_date', { mode: 'string' }),
    deathCause: text('death_cause'),
    /** Lost to follow-up as a whole (issue 6); null while the patient is followed. */
    followupLostAt: timestamp('followup_lost_at', { withTimezone: true }),
    followupLostReason: text('followup_lost_reason'),
    rowVersion: integer('row_version').notNull().default(1),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: createdAt(),
    updatedBy: uuid('updated_by').references(() => users.id),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    deleteReason: text('delete_reason'),
  },
  (t) => [
    uniqueIndex('patients_project_no_uq').on(t.projectId, t.patientNo),
    uniqueIndex('patients_project_seq_uq').on(t.projectId, t.seq),
    uniqueIndex('patients_project_id_number_uq')
      .on(t.projectId, t.idNumberBi)
      .where(sql`${t.deletedAt} is null and ${t.idNumberBi} is not null`),
    uniqueIndex('patients_project_hospital_no_uq')
      .on(t.projectId, t.hospitalNo)
      .where(sql`${t.deletedAt} is null and ${t.hospitalNo} is not null`),
    index('patients_tenant_project_center_idx').on(t.tenantId, t.projectId, t.centerId),
    index('patients_sub_project_idx').on(t.subProjectId),
    // The patient list (`POST patient-info/page`, bench P1): for each indexed sort column one index for a center's
    // patients and one project-wide, in the list's order (`<column> desc nulls last, seq desc`; ascending reads it
    // backwards), live rows only. They end with the columns of the common filters and the id, so a deep page found by
    // OFFSET is an index-only scan and a keyset page starts right at its cursor.
    ...(
      [
        ['created', t.createdAt],
        ['updated', t.updatedAt],
        ['enrol', t.enrolDate],
        ['seq', t.seq],
      ] as const
    ).flatMap(([name, column]) => {
      // Built anew for each index (drizzle's ordered columns are not shared safely).
      const order = () =>
        column === t.seq ? [t.seq.desc().nullsFirst()] : [column.desc().nullsLast(), t.seq.desc().nullsFirst()];
      const carried = [t.status, ...(column === t.enrolDate ? [] : [t.enrolDate]), t.subProjectId, t.id];
      const live = sql`${t.deletedAt} is null`;
      return [
        index(`patients_list_center_${name}_idx`)
          .on(t.tenantId, t.projectId, t.centerId, ...order(), ...carried)
          .where(live),
        index(`patients_list_${name}_idx`)
          .on(t.tenantId, t.projectId, ...order(), ...carried)
          .where(live),
      ];
    }),
    check('patients_status_ck', sql`${t.status} in ('screening', 'enrolled', 'withdrawn', 'completed', 'deceased')`),
    check('patients_gender_ck', sql`${t.gender} is null or ${t.gender} in ('0', '1', '2', '9')`),
  ],
);

/**
 * Entered CRF data: one row per patient, form and instance (repeatable forms have instances 1..n). Written by the
 * patient pages (issue 5); the publish check of issue 4 counts the data a breaking change would orphan.
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
    /** The follow-up task (issue 6) this record was filled for, or null for a record of the patient pages. */
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

/**
 * Option lists (dictionaries) for `dict` fields: gender, ethnicity, blood type, units, ICD-10 ... `tenant_id` null =
 * a built-in system list, read by every tenant; a tenant's own list may not reuse a built-in code (service check).
 */
export const fieldDicts = pgTable(
  'field_dicts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').references(() => tenants.id),
    code: text('code').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    /** Where the options come from (e.g. the dataset package of a bundled list). */
    source: text('source'),
    builtIn: boolean('built_in').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    unique('field_dicts_tenant_code_uq').on(t.tenantId, t.code).nullsNotDistinct(),
    index('field_dicts_code_idx').on(t.code),
  ],
);

export const fieldDictOptions = pgTable(
  'field_dict_options',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    dictId: uuid('dict_id')
      .notNull()
      .references(() => fieldDicts.id, { onDelete: 'cascade' }),
    /** null for the options of a built-in list. */
    tenantId: uuid('tenant_id').references(() => tenants.id),
    code: text('code').notNull(),
    label: text('label').notNull(),
    /** Search key of the label: pinyin initials, a space, then the full toneless pinyin (`xlsj xinlishuaijie`). */
    pinyin: text('pinyin').notNull().default(''),
    parentCode: text('parent_code'),
    sort: integer('sort').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
  },
  (t) => [
    uniqueIndex('field_dict_options_dict_code_uq').on(t.dictId, t.code),
    index('field_dict_options_dict_sort_idx').on(t.dictId, t.sort, t.code),
    index('field_dict_options_dict_parent_idx').on(t.dictId, t.parentCode),
  ],
);

/** China's administrative divisions (GB/T 2260): provinces (1), prefectures (2), counties (3). Reference data. */
export const areas = pgTable(
  'areas',
  {
    code: text('code').primaryKey(),
    name: text('name').notNull(),
    parentCode: text('parent_code'),
    level: smallint('level').notNull(),
    /** e.g. 广东省广州市天河区. */
    fullName: text('full_name').notNull(),
  },
  (t) => [index('areas_parent_idx').on(t.parentCode, t.code), check('areas_level_ck', sql`${t.level} between 1 and 3`)],
);

// ---------------------------------------------------------------------------------------------------------------
// Data-point history, source data verification, queries, imports and saved page layouts (issue 5)
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
     * Whose data it is (issue 12): the user who last wrote the data point when the query was raised (else the record's
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

// ---------------------------------------------------------------------------------------------------------------
// Follow-up (issue 6): plans → visits → per-patient assignments and tasks → contact attempts. Dates of tasks are
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

// ---------------------------------------------------------------------------------------------------------------
// Notifications and durable scheduled jobs (issue 6: follow-up reminders)
// ---------------------------------------------------------------------------------------------------------------

/** An in-app notification of one user. `(user_id, kind, entity_id)` is unique: a reminder is never sent twice. */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    projectId: uuid('project_id').references(() => projects.id),
    kind: text('kind').notNull(),
    /** The thing notified about (a follow-up task). */
    entityId: uuid('entity_id'),
    title: text('title').notNull(),
    body: text('body').notNull(),
    link: text('link'),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('notifications_user_kind_entity_uq').on(t.userId, t.kind, t.entityId),
    index('notifications_user_unread_idx')
      .on(t.userId, t.createdAt)
      .where(sql`${t.readAt} is null`),
    index('notifications_user_created_idx').on(t.userId, t.createdAt),
  ],
);

/**
 * Durable scheduled jobs: one row per job. A process runs a job only after claiming its lease (`locked_until`) with a
 * conditional UPDATE, so two server processes never run it at once; `next_run_at` survives restarts.
 */
export const scheduledJobs = pgTable('scheduled_jobs', {
  name: text('name').primaryKey(),
  nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  lockedBy: text('locked_by'),
  lastStartedAt: timestamp('last_started_at', { withTimezone: true }),
  lastFinishedAt: timestamp('last_finished_at', { withTimezone: true }),
  lastError: text('last_error'),
  runCount: integer('run_count').notNull().default(0),
});

/**
 * Idempotency keys of signed-in write requests (`Idempotency-Key`, ADR 0011): the first request with a key reserves
 * the row (`status_code` null while it runs, `locked_until` its lease), and its answer is stored when it is sent; a
 * repeat with the same key gets the stored answer. Scoped to the user (the primary key), so no one can replay
 * another's. `request_hash` is SHA-256 over the method, the whole URL and the body (a repeat must match it); `route`
 * is the route's pattern only (ids and query values may carry PHI). The answer is encrypted like PHI (`response`,
 * phi-crypto: it may carry a patient's identity number). Rows expire after 24 hours: deleted by the
 * `idempotency-cleanup` job, and an expired key met again is simply reused.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** The acting tenant of the session that made the request. */
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    method: text('method').notNull(),
    route: text('route').notNull(),
    requestHash: text('request_hash').notNull(),
    /** The stored answer's HTTP status; null while the first request still runs. */
    statusCode: smallint('status_code'),
    contentType: text('content_type'),
    /** The stored answer's body, encrypted (`encryptPhi`). */
    response: text('response'),
    createdAt: createdAt(),
    /** Until when a request still running holds the key; past it, a repeat may take the key over (a crashed run). */
    lockedUntil: timestamp('locked_until', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.key] }),
    index('idempotency_keys_expires_idx').on(t.expiresAt),
    check('idempotency_keys_key_len', sql`char_length(${t.key}) between 1 and 255`),
  ],
);
