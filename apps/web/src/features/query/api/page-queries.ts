import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { QueryPageRequest, QueryPageResponse } from '@registry/shared/contracts/form-record';
import { request } from '../../../lib/request';

/** `POST form-record/query/page`: the current project's queries within the caller's scope, newest first. */
export function pageQueries(body: QueryPageRequest): Promise<QueryPageResponse> {
  return request<QueryPageResponse>({ method: 'post', url: '/form-record/query/page', data: body });
}

export function useQueryPage(body: QueryPageRequest) {
  return useQuery({
    queryKey: ['form-record', 'query-page', body] as const,
    queryFn: () => pageQueries(body),
    placeholderData: keepPreviousData,
  });
}
