import { useQuery } from '@tanstack/react-query';
import type { VersionSummary } from '@registry/shared/contracts/form-definition';
import { request } from '../../../lib/request';

/** `GET form-definition/versions`: the published versions, newest first. */
export function listVersions(): Promise<VersionSummary[]> {
  return request<VersionSummary[]>({ method: 'get', url: '/form-definition/versions' });
}

export function useVersions() {
  return useQuery({ queryKey: ['form-definition', 'versions'], queryFn: listVersions, staleTime: 0 });
}
