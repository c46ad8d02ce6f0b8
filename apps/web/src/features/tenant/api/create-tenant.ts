import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TenantCreateRequest, TenantCreateResponse } from '@registry/shared/contracts/tenant';
import { request } from '../../../lib/request';

/** `POST sys-tenant`: a hospital tenant and its first administrator (initial password answered once). */
export function createTenant(body: TenantCreateRequest): Promise<TenantCreateResponse> {
  return request<TenantCreateResponse>({ method: 'post', url: '/sys-tenant', data: body });
}

export function useCreateTenant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTenant,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['sys-tenant'] }),
  });
}
