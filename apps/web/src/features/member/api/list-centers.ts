import { useQuery } from '@tanstack/react-query';
import type { CenterVO } from '@registry/shared/contracts/center';
import { request } from '../../../lib/request';

/** `GET project-center/list`: the current project's centers (for a member's center). */
export function listCenters(): Promise<CenterVO[]> {
  return request<CenterVO[]>({ method: 'get', url: '/project-center/list' });
}

export function useCenters() {
  return useQuery({ queryKey: ['project-center', 'list'], queryFn: listCenters });
}
