import { useQuery } from '@tanstack/react-query';
import type { CenterVO } from '@registry/shared/contracts/center';
import { request } from '../../lib/request';

/**
 * `GET project-center/list`: the current project's centers within the caller's scope (a center-scoped member gets only
 * their own), default first.
 */
export function listCenters(): Promise<CenterVO[]> {
  return request<CenterVO[]>({ method: 'get', url: '/project-center/list' });
}

export const centerListQuery = () => ({
  queryKey: ['project-center', 'list'] as const,
  queryFn: listCenters,
  staleTime: 60_000,
});

export function useCenters() {
  return useQuery(centerListQuery());
}
