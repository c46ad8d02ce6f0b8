import { useMutation } from '@tanstack/react-query';
import { UPLOAD_FIELD } from '@registry/shared/contracts/file-codes';
import type { ImportReport } from '@registry/shared/contracts/patient-import';
import { request } from '../../../lib/request';

/** `POST patient-import/dry-run` (multipart `file`): every bad cell of the file; nothing is written. */
export function dryRunImport(file: File): Promise<ImportReport> {
  const data = new FormData();
  data.append(UPLOAD_FIELD, file);
  return request<ImportReport>({ method: 'post', url: '/patient-import/dry-run', data, registry: { upload: true } });
}

export function useDryRunImport() {
  return useMutation({ mutationFn: dryRunImport });
}
