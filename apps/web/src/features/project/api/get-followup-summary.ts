import { useQuery } from '@tanstack/react-query';
import type { FollowupSummary } from '@registry/shared/contracts/followup';
import { request } from '../../../lib/request';

/** `GET followup/summary` (`followup.list`): the home page's follow-up figures of the current project. */
export function getFollowupSummary(): Promise<FollowupSummary> {
  return request<FollowupSummary>({ method: 'get', url: '/followup/summary' });
}

export function useFollowupSummary(enabled: boolean) {
  return useQuery({ queryKey: ['followup', 'summary'], queryFn: getFollowupSummary, enabled });
}
