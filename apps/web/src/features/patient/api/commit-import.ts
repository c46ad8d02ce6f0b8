import { useMutation, useQueryClient } from '@tanstack/react-query';
import { UPLOAD_FIELD } from '@registry/shared/contracts/file-codes';
import type { ImportCommitResponse } from '@registry/shared/contracts/patient-import';
import { request } from '../../../lib/request';
import { patientKeys } from './page-patients';

/** `POST patient-import/commit` (multipart `file`): all rows in one transaction, or nothing (400 with the issues). */
export function commitImport(file: File): Promise<ImportCommitResponse> {
  const data = new FormData();
  data.append(UPLOAD_FIELD, file);
  return request<ImportCommitResponse>({
    method: 'post',
    url: '/patient-import/commit',
    data,
    registry: { upload: true },
  });
}

export function useCommitImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: commitImport,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: patientKeys.all }),
  });
}
