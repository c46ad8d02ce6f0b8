import { useQuery } from '@tanstack/react-query';
import type { DraftResponse } from '@registry/shared/contracts/form-definition';
import { request } from '../../../lib/request';

export const DRAFT_QUERY_KEY = ['form-definition', 'draft'] as const;

/** `GET form-definition/draft`: the working draft of the current project (with the parent's definition for a sub-project). */
export function getDraft(): Promise<DraftResponse> {
  return request<DraftResponse>({ method: 'get', url: '/form-definition/draft' });
}

export function useDraft(enabled = true) {
  return useQuery({ queryKey: DRAFT_QUERY_KEY, queryFn: getDraft, enabled, staleTime: 0, gcTime: 0 });
}
