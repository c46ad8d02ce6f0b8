import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AssignmentVO } from '@registry/shared/contracts/followup';
import type { Page } from '../../../../lib/page';
import { request } from '../../../../lib/request';
import { planKeys } from './keys';

export type AssignmentPageParams = { planId: string; keyword?: string; current: number; size: number };

/** `POST followup/assignment/page`: the patients of a plan. */
export function pageAssignments(body: AssignmentPageParams): Promise<Page<AssignmentVO>> {
  return request<Page<AssignmentVO>>({ method: 'post', url: '/followup/assignment/page', data: body });
}

export function useAssignments(params: AssignmentPageParams, enabled: boolean) {
  return useQuery({
    queryKey: [...planKeys.assignments(params.planId), params.keyword ?? '', params.current, params.size],
    queryFn: () => pageAssignments(params),
    enabled,
    placeholderData: keepPreviousData,
  });
}
