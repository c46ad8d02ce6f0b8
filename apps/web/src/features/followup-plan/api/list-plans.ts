import { useQuery } from '@tanstack/react-query';
import type { PlanVO } from '@registry/shared/contracts/followup';
import { request } from '../../../lib/request';
import { followupKeys } from './keys';

/** `GET followup/plan/list`: the current project's plans, newest first. */
export function listPlans(): Promise<PlanVO[]> {
  return request<PlanVO[]>({ method: 'get', url: '/followup/plan/list' });
}

export function usePlans() {
  return useQuery({ queryKey: followupKeys.plans, queryFn: listPlans });
}
