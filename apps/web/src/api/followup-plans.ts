import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PlanVO } from '@registry/shared/contracts/followup';
import { request } from '../lib/request';

export const followupPlanKeys = {
  list: ['followup', 'plan', 'list'] as const,
};

/**
 * `GET followup/plan/list`: the current project's plans with their visits and task counts, newest first. Used by the
 * plan list page and the worklist's plan and visit filters; fetched again whenever a page using it mounts (the counts
 * move with every task done elsewhere), and invalidated by every plan change (`['followup']`).
 */
export function listPlans(): Promise<PlanVO[]> {
  return request<PlanVO[]>({ method: 'get', url: '/followup/plan/list' });
}

export const planListQuery = () => queryOptions({ queryKey: followupPlanKeys.list, queryFn: listPlans });

export function usePlans() {
  return useQuery(planListQuery());
}
