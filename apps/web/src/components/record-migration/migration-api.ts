import type {
  MigrationApplyRequest,
  MigrationApplyResponse,
  MigrationPreviewResponse,
  MigrationSelection,
} from '@registry/shared/contracts/record-migration';
import { request } from '../../lib/request';

/**
 * `POST form-record/migration/preview` (`patient.edit`): which records would move to their form's newest version and
 * what they would lose; writes nothing. Shared by the patient editor (one record) and the database page (the project).
 */
export function previewMigration(selection: MigrationSelection): Promise<MigrationPreviewResponse> {
  return request<MigrationPreviewResponse>({ method: 'post', url: '/form-record/migration/preview', data: selection });
}

/** `POST form-record/migration/apply` (`patient.edit`): moves up to `limit` records; call again while `remaining` > 0. */
export function applyMigration(body: MigrationApplyRequest): Promise<MigrationApplyResponse> {
  return request<MigrationApplyResponse>({ method: 'post', url: '/form-record/migration/apply', data: body });
}

export const migrationKeys = {
  preview: (selection: MigrationSelection) => ['form-record', 'migration', selection] as const,
};
