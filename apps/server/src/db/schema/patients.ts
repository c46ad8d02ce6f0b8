import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns';
import { tenants, users } from './identity';
import { centers, projects } from './projects';

// ---------------------------------------------------------------------------------------------------------------
// Patients. Identity number and phone are stored only as AES-256-GCM ciphertext (`lib/phi-crypto.ts`) with a
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
    /** Recorded by follow-up (`followup/patient/death`), with the status `deceased`. */
    deathDate: date('death_date', { mode: 'string' }),
    deathCause: text('death_cause'),
    /** Lost to follow-up as a whole; null while the patient is followed. */
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
