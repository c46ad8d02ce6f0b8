import type { RecordDetailQuery } from '@registry/shared/contracts/form-record';
import { formRecordKeys } from '../../../api/form-records';

/** Query keys of the patient's records. The detail of a record is never invalidated: the editor owns its copy. */
export const recordKeys = {
  all: ['form-record'] as const,
  /** Every patient's record list and every history: what a change of statuses, marks or queries makes stale. */
  lists: ['form-record', 'patient'] as const,
  histories: ['form-record', 'history'] as const,
  patient: (patientId: string) => ['form-record', 'patient', patientId] as const,
  detail: (query: RecordDetailQuery) => formRecordKeys.detail(query),
  history: (recordId: string, path?: string, sinceRowVersion?: number) =>
    ['form-record', 'history', recordId, path ?? null, sinceRowVersion ?? null] as const,
};

export const patientKeys = {
  detail: (id: string) => ['patient-info', 'detail', id] as const,
};
