import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OrganisationCreateRequest, OrganisationOption } from '@registry/shared/contracts/organisation';
import { request } from '../../../lib/request';

/** `POST web-project/org {name}`: adds a hospital to the tenant (a center at another hospital). */
export function createOrganisation(body: OrganisationCreateRequest): Promise<OrganisationOption> {
  return request<OrganisationOption>({ method: 'post', url: '/web-project/org', data: body });
}

export function useCreateOrganisation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createOrganisation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['web-project', 'org-list'] }),
  });
}
