import { useMemo } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { TaskDetailVO, TaskFormVO } from '@registry/shared/contracts/followup';
import type { RecordSessionApi } from '../../../components/crf/use-record-session';
import { taskKeys } from '../api/keys';
import { saveTaskForm } from '../api/save-task-form';

/** The record of one of the visit's forms (null: not started). */
export type TaskRecord = TaskFormVO['record'];

const NOTHING_MASKED: ReadonlySet<string> = new Set();

/**
 * The calls of a visit form's record session: `followup/task/form/save` (a draft or a submit, from the record's
 * rowVersion, null for a first save), and after a 409 the task read again (`reload`), its form's record as it is now.
 */
export function useTaskFormApi({
  taskId,
  formKey,
  versionId,
  reload,
}: {
  taskId: string;
  formKey: string;
  versionId: string;
  reload: () => Promise<unknown>;
}): RecordSessionApi<TaskRecord> {
  const client = useQueryClient();
  return useMemo(
    () => ({
      read: (record) => ({
        id: record?.id ?? null,
        status: record?.status ?? null,
        rowVersion: record?.rowVersion ?? 0,
        data: record?.data ?? {},
        masked: NOTHING_MASKED,
        issues: [],
      }),
      save: ({ record, data, action, reason }) =>
        saveTaskForm({
          taskId,
          formKey,
          versionId,
          data,
          rowVersion: record?.rowVersion ?? null,
          submit: action === 'submit',
          ...(reason ? { reason } : {}),
        }).then((saved) => saved.record),
      load: async () => {
        await reload();
        const detail = client.getQueryData<TaskDetailVO>(taskKeys.detail(taskId));
        return detail?.forms.find((f) => f.formKey === formKey)?.record ?? null;
      },
    }),
    [client, taskId, formKey, versionId, reload],
  );
}
