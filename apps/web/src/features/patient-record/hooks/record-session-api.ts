import { useMemo } from 'react';
import type { FormRecordVO } from '@registry/shared/contracts/form-record';
import type { RecordSessionApi } from '../../../components/crf/use-record-session';
import { getFormRecord } from '../../../api/form-records';
import { changeRecordStatus } from '../api/change-record-status';
import { saveRecord } from '../api/save-record';

/** The values of the record the user may not see (PHI without `patient.pii`): their field keys. */
export function maskedKeys(record: FormRecordVO): ReadonlySet<string> {
  return new Set(record.maskedPaths.map((p) => p.split('.')[0] ?? p));
}

function detailOf(record: FormRecordVO) {
  return { patientId: record.patientId, formKey: record.formKey, instance: record.instance };
}

/**
 * The calls of the patient editor's record session: `form-record/save` from the record's rowVersion, `form-record/detail`
 * to reload it, `form-record/status`. `newInstance`: a blank record of a repeating form is saved without an instance
 * (the server numbers it).
 */
export function usePatientRecordApi(newInstance: boolean): RecordSessionApi<FormRecordVO> {
  return useMemo(
    () => ({
      read: (record) => ({
        id: record.id,
        status: record.status,
        rowVersion: record.rowVersion,
        data: record.data,
        masked: maskedKeys(record),
        issues: record.issues,
      }),
      save: ({ record, data, action, reason }) =>
        saveRecord({
          patientId: record.patientId,
          formKey: record.formKey,
          instance: record.id === null && newInstance ? undefined : record.instance,
          rowVersion: record.rowVersion,
          data,
          action,
          ...(reason ? { reason } : {}),
        }),
      load: (record) => getFormRecord(detailOf(record)),
      findId: (record) => getFormRecord(detailOf(record)).then((r) => r.id),
      changeStatus: ({ record, action, reason }) =>
        changeRecordStatus({
          id: record.id ?? '',
          rowVersion: record.rowVersion,
          action,
          ...(reason ? { reason } : {}),
        }),
    }),
    [newInstance],
  );
}
