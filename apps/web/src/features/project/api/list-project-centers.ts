import type { CenterVO } from '@registry/shared/contracts/center';
import { request } from '../../../lib/request';

/** `GET project-center/list?status=active`: the open centers of the session's current project. */
export function listProjectCenters(): Promise<CenterVO[]> {
  return request<CenterVO[]>({ method: 'get', url: '/project-center/list', params: { status: 'active' } });
}
