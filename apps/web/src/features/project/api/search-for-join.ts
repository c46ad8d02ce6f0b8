import { useQuery } from '@tanstack/react-query';
import type { JoinableProject } from '@registry/shared/contracts/project';
import { request } from '../../../lib/request';

/** `POST web-project/search4join {keyword}`: the tenant's projects the caller may ask to join. */
export function searchForJoin(keyword: string): Promise<JoinableProject[]> {
  return request<JoinableProject[]>({ method: 'post', url: '/web-project/search4join', data: { keyword } });
}

export function useSearchForJoin(keyword: string) {
  const trimmed = keyword.trim();
  return useQuery({
    queryKey: ['web-project', 'search4join', trimmed],
    queryFn: () => searchForJoin(trimmed),
    enabled: trimmed.length > 0,
  });
}
