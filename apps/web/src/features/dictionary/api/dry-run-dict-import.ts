import { useMutation } from '@tanstack/react-query';
import { UPLOAD_FIELD } from '@registry/shared/contracts/file-codes';
import type { DictImportReport } from '@registry/shared/contracts/dictionary';
import { request } from '../../../lib/request';

export type DictImportInput = { dictId: string; file: File; disableMissing: boolean };

/** The address of an import call: the list and the option, never anything from the file. */
export function dictImportUrl(call: 'dry-run' | 'commit', input: DictImportInput): string {
  const query = new URLSearchParams({ dictId: input.dictId, disableMissing: String(input.disableMissing) });
  return `/sys-field-dict/import/${call}?${query.toString()}`;
}

/** `POST sys-field-dict/import/dry-run` (multipart `file`): what the file would change and every bad row; writes nothing. */
export function dryRunDictImport(input: DictImportInput): Promise<DictImportReport> {
  const data = new FormData();
  data.append(UPLOAD_FIELD, input.file);
  return request<DictImportReport>({
    method: 'post',
    url: dictImportUrl('dry-run', input),
    data,
    registry: { upload: true },
  });
}

export function useDryRunDictImport() {
  return useMutation({ mutationFn: dryRunDictImport });
}
