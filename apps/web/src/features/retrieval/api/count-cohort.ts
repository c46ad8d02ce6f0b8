import { keepPreviousData, skipToken, useQuery } from '@tanstack/react-query';
import type { CohortDefinition } from '@registry/shared/cohort/definition';
import type { CohortCountResponse } from '@registry/shared/contracts/retrieval';
import { request } from '../../../lib/request';
import { retrievalKeys } from './keys';

/**
 * `POST retrieval/count`: how many of the caller's patients the cohort selects, of how many. Silent: its refusals
 * (a cohort that does not fit the forms, the 15 s timeout) show beside the builder, not as toasts on every edit.
 * `signal` aborts the call once a newer cohort supersedes it.
 */
export function countCohort(cohort: CohortDefinition, signal?: AbortSignal): Promise<CohortCountResponse> {
  return request<CohortCountResponse>({
    method: 'post',
    url: '/retrieval/count',
    data: { cohort },
    signal,
    registry: { silent: true },
  });
}

/** The live count of `cohort` (already debounced by the page); `null`: nothing to count. */
export function useCohortCount(cohort: CohortDefinition | null) {
  return useQuery({
    queryKey: retrievalKeys.count(cohort),
    queryFn: cohort ? ({ signal }) => countCohort(cohort, signal) : skipToken,
    placeholderData: keepPreviousData,
    retry: false,
  });
}
