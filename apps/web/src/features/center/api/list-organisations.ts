import { useQuery } from '@tanstack/react-query';
import type { OrganisationOption } from '@registry/shared/contracts/organisation';
import { request } from '../../../lib/request';

/** `GET web-project/org-list?keyword=`: the acting tenant's organisations (hospitals). */
export function listOrganisations(keyword?: string): Promise<OrganisationOption[]> {
  return request<OrganisationOption[]>({
    method: 'get',
    url: '/web-project/org-list',
    params: keyword ? { keyword } : {},
  });
}

export function useOrganisations(enabled = true) {
  return useQuery({ queryKey: ['web-project', 'org-list'], queryFn: () => listOrganisations(), enabled });
}
