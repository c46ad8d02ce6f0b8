import { keepPreviousData, skipToken, useQuery } from '@tanstack/react-query';
import type { CohortRowsRequest, CohortRowsResponse } from '@registry/shared/contracts/retrieval';
import { request } from '../../../lib/request';
import { retrievalKeys } from './keys';

/**
 * `POST retrieval/rows`: a page of the cohort's patients with the chosen CRF columns. Silent, like the count: a
 * refusal shows above the table, not as a toast. `signal` aborts the call once a newer page supersedes it.
 */
export function cohortRows(body: CohortRowsRequest, signal?: AbortSignal): Promise<CohortRowsResponse> {
  return request<CohortRowsResponse>({
    method: 'post',
    url: '/retrieval/rows',
    data: body,
    signal,
    registry: { silent: true },
  });
}

/** The result page of `body` (cohort, columns, page, sort); `null`: nothing to read (the builder shows an issue). */
export function useCohortRows(body: CohortRowsRequest | null) {
  return useQuery({
    queryKey: retrievalKeys.rows(body),
    queryFn: body ? ({ signal }) => cohortRows(body, signal) : skipToken,
    placeholderData: keepPreviousData,
    retry: false,
  });
}
