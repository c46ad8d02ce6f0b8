import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ExportJobVO, ExportListQuery } from '@registry/shared/contracts/export';
import { request } from '../../../../lib/request';
import type { Page } from '../../../../lib/page';
import { exportKeys } from './keys';

/** `GET retrieval/export/list?current=&size=&mine=`: the current project's exports, newest first. */
export function listExports(params: ExportListQuery): Promise<Page<ExportJobVO>> {
  return request<Page<ExportJobVO>>({ method: 'get', url: '/retrieval/export/list', params });
}

/** The history page (the last page stays shown while another is read). */
export function useExports(params: ExportListQuery) {
  return useQuery({
    queryKey: exportKeys.list(params),
    queryFn: () => listExports(params),
    placeholderData: keepPreviousData,
  });
}
