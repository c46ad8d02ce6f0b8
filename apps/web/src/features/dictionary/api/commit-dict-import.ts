import { useMutation, useQueryClient } from '@tanstack/react-query';
import { UPLOAD_FIELD } from '@registry/shared/contracts/file-codes';
import type { DictImportReport } from '@registry/shared/contracts/dictionary';
import { request } from '../../../lib/request';
import { dictKeys } from '../../../api/dictionaries';
import { dictOptionKeys } from '../../../api/dict-options';
import { dictImportUrl, type DictImportInput } from './dry-run-dict-import';

/** `POST sys-field-dict/import/commit` (multipart `file`): every change in one transaction, or nothing (400 with the rows). */
export function commitDictImport(input: DictImportInput): Promise<DictImportReport> {
  const data = new FormData();
  data.append(UPLOAD_FIELD, input.file);
  return request<DictImportReport>({
    method: 'post',
    url: dictImportUrl('commit', input),
    data,
    registry: { upload: true },
  });
}

export function useCommitDictImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: commitDictImport,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: dictOptionKeys.all });
      await queryClient.invalidateQueries({ queryKey: dictKeys.all });
    },
  });
}
