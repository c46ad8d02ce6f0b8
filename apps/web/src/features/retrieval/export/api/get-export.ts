import { useQueries } from '@tanstack/react-query';
import { EXPORT_CANCELLABLE, type ExportState } from '@registry/shared/contracts/export-codes';
import type { ExportJobVO } from '@registry/shared/contracts/export';
import { request } from '../../../../lib/request';
import { exportKeys } from './keys';

/** How often a queued or running export is asked for its progress. */
export const EXPORT_POLL_MS = 1500;

/** Queued or running: its progress still changes. */
export const isExportActive = (state: ExportState) => EXPORT_CANCELLABLE.includes(state);

/**
 * `GET retrieval/export/detail?id=`: one export of the current project. Silent: it is polled, and a refused poll (a
 * network hiccup) must not raise a toast every 1.5 s; the history keeps its last answer.
 */
export function getExport(id: string): Promise<ExportJobVO> {
  return request<ExportJobVO>({
    method: 'get',
    url: '/retrieval/export/detail',
    params: { id },
    registry: { silent: true },
  });
}

/**
 * The exports of `jobs` still queued or running, polled every {@link EXPORT_POLL_MS} until they end; `onEnded` is
 * called once a poll finds one ended (the history is read again then, for its patients, size and expiry).
 * Returns the jobs with the polled answers in place of the listed ones.
 */
export function useActiveExports(jobs: readonly ExportJobVO[], onEnded: () => void): ExportJobVO[] {
  const active = jobs.filter((job) => isExportActive(job.state));
  const polled = useQueries({
    queries: active.map((job) => ({
      queryKey: exportKeys.detail(job.id),
      queryFn: async () => {
        const next = await getExport(job.id);
        if (!isExportActive(next.state)) onEnded();
        return next;
      },
      initialData: job,
      // The listed answer is fresh: the first poll comes one interval later.
      staleTime: EXPORT_POLL_MS,
      retry: false,
      refetchInterval: (query: { state: { data?: ExportJobVO } }) =>
        query.state.data && !isExportActive(query.state.data.state) ? false : EXPORT_POLL_MS,
    })),
  });
  const byId = new Map(polled.flatMap((q) => (q.data ? [[q.data.id, q.data] as const] : [])));
  return jobs.map((job) => byId.get(job.id) ?? job);
}
