import type { FormRecordVO, RecordDetailQuery } from '@registry/shared/contracts/form-record';
import type {
  MigrationApplyRequest,
  MigrationApplyResponse,
  MigrationPreviewResponse,
  MigrationSelection,
} from '@registry/shared/contracts/record-migration';
import { request } from '../lib/request';

export const formRecordKeys = {
  /** One record: the same in every feature, so they share (and invalidate) one cache entry. */
  detail: (query: RecordDetailQuery) =>
    ['form-record', 'detail', query.patientId, query.formKey, query.instance ?? 1] as const,
  migrationPreview: (selection: MigrationSelection) => ['form-record', 'migration', selection] as const,
};

/**
 * `GET form-record/detail?patientId=&formKey=&instance=` (`patient.list`): one record of a patient, or a blank one (id
 * null, rowVersion 0). Shared by the features that render a patient's forms (the patient editor, the follow-up task);
 * its key is `formRecordKeys.detail`.
 */
export function getFormRecord(query: RecordDetailQuery): Promise<FormRecordVO> {
  return request<FormRecordVO>({ method: 'get', url: '/form-record/detail', params: query });
}

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
