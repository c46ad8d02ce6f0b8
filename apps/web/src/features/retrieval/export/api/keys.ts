import type { ExportListQuery } from '@registry/shared/contracts/export';

/** Query keys of the export page: the history by its page and filter, one job by its id (polled while it runs). */
export const exportKeys = {
  all: ['retrieval', 'export'] as const,
  lists: ['retrieval', 'export', 'list'] as const,
  list: (params: ExportListQuery) => ['retrieval', 'export', 'list', params] as const,
  detail: (id: string) => ['retrieval', 'export', 'detail', id] as const,
};
