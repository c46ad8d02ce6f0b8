import { useQuery } from '@tanstack/react-query';
import type { VersionDetailResponse } from '@registry/shared/contracts/form-definition';
import { request } from '../../../lib/request';

/** `GET form-definition/version?id=`: one version with its definition and its diff against the one before. */
export function getVersion(id: string): Promise<VersionDetailResponse> {
  return request<VersionDetailResponse>({ method: 'get', url: '/form-definition/version', params: { id } });
}

export function useVersion(id: string | null | undefined) {
  return useQuery({
    queryKey: ['form-definition', 'version', id],
    queryFn: () => getVersion(id as string),
    enabled: Boolean(id),
    staleTime: Infinity,
  });
}
