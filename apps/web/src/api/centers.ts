import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CenterVO } from '@registry/shared/contracts/center';
import { request } from '../lib/request';

export const centerKeys = {
  all: ['project-center'] as const,
  list: ['project-center', 'list'] as const,
};

/**
 * `GET project-center/list`: the current project's centers within the caller's scope (a center-scoped member gets only
 * their own), default first. Fresh for a minute: every change of a center (the center page's calls) invalidates
 * `centerKeys.all`.
 */
export function listCenters(): Promise<CenterVO[]> {
  return request<CenterVO[]>({ method: 'get', url: '/project-center/list' });
}

export const centerListQuery = () =>
  queryOptions({ queryKey: centerKeys.list, queryFn: listCenters, staleTime: 60_000 });

export function useCenters() {
  return useQuery(centerListQuery());
}
