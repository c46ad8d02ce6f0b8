import { z } from 'zod';
import { MIGRATION_PREVIEW_ITEMS } from './record-migration-codes';

export { MIGRATION_PREVIEW_ITEMS };

/**
 * Bringing CRF records entered on an older published version onto the current one (the edit page's 升级到新版本 for
 * one record or a patient's records, the database page's 数据迁移 for the whole project). Base
 * `form-record/migration`, permission `patient.edit`; the patients come from the session's project and center scope.
 *
 * - `POST form-record/migration/preview`: what would move, which values cannot be carried (with the reason) and which
 *   calculated values change; nothing is written.
 * - `POST form-record/migration/apply`: moves up to `limit` records, each in its own transaction with its value
 *   versions and one audit event `form_record.migrate` (reason required); locked records are skipped, and so are
 *   records that would lose a value unless `acceptLoss` is true. Call again while `remaining` > 0.
 */
export const migrationSelection = z.object({
  /** One patient's records (omitted: every patient in scope). */
  patientId: z.guid('患者不存在').optional(),
  /** One form (with `instance`: one record). */
  formKey: z.string().trim().min(1).max(64).optional(),
  instance: z.number().int().min(1).max(2147483647).optional(),
});
export type MigrationSelection = z.infer<typeof migrationSelection>;

export const migrationPreviewRequest = migrationSelection;

export const migrationLossVO = z.object({
  path: z.string(),
  label: z.string(),
  /** The value as text; masked (`***`) for a PHI field without `patient.pii`. */
  value: z.string(),
  reason: z.string(),
});
export type MigrationLossVO = z.infer<typeof migrationLossVO>;

export const migrationItemVO = z.object({
  recordId: z.string(),
  patientId: z.string(),
  patientNo: z.string(),
  formKey: z.string(),
  formTitle: z.string(),
  instance: z.number().int(),
  status: z.string(),
  fromVersionNo: z.number().int(),
  toVersionNo: z.number().int(),
  /** Locked records are not moved until unlocked. */
  locked: z.boolean(),
  lost: z.array(migrationLossVO),
  recalculated: z.array(z.object({ path: z.string(), label: z.string(), before: z.string(), after: z.string() })),
});
export type MigrationItemVO = z.infer<typeof migrationItemVO>;

export const migrationPreviewResponse = z.object({
  /** Records on an older version than their form's current one. */
  total: z.number().int(),
  /** Of those, records that would lose at least one value. */
  lossy: z.number().int(),
  locked: z.number().int(),
  /** The first records (lossy and locked ones first). */
  items: z.array(migrationItemVO),
});
export type MigrationPreviewResponse = z.infer<typeof migrationPreviewResponse>;

export const migrationApplyRequest = migrationSelection.extend({
  reason: z.string().trim().min(1, '请填写迁移原因').max(500, '迁移原因不能超过500个字符'),
  /** Move records even when some of their values cannot be carried (they stay in the data-point history). */
  acceptLoss: z.boolean().default(false),
  /** Records moved by this call at most. */
  limit: z.number().int().min(1).max(500).default(200),
});
export type MigrationApplyRequest = z.input<typeof migrationApplyRequest>;

export const migrationApplyResponse = z.object({
  migrated: z.number().int(),
  /** Left on their version: locked, or losing values without `acceptLoss`, or changed by someone meanwhile. */
  skipped: z.number().int(),
  /** Records still on an older version that a next call would move. */
  remaining: z.number().int(),
});
export type MigrationApplyResponse = z.infer<typeof migrationApplyResponse>;
