import { useQuery } from '@tanstack/react-query';
import type { PlanVO } from '@registry/shared/contracts/followup';
import { request } from '../../../../lib/request';
import { planKeys } from './keys';

/** `GET followup/plan/detail?id=`: one plan with its visits. */
export function getPlan(id: string): Promise<PlanVO> {
  return request<PlanVO>({ method: 'get', url: '/followup/plan/detail', params: { id } });
}

/**
 * The plan being edited: read fresh each time the editor opens (`gcTime: 0`), then never refetched behind the user's
 * back (the editor owns its copy until it saves or reloads after a 409).
 */
export function usePlan(id: string | null) {
  return useQuery({
    queryKey: planKeys.plan(id ?? ''),
    queryFn: () => getPlan(id ?? ''),
    enabled: Boolean(id),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
}
