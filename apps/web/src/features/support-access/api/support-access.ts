import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SupportAccessCreateRequest, SupportAccessListResponse } from '@registry/shared/contracts/support-access';
import { request } from '../../../lib/request';

const KEY = ['support-access'] as const;

/** `GET support-access/list` (`support.grant`): the tenant's support access grants, newest first. */
export function useSupportAccess() {
  return useQuery({
    queryKey: KEY,
    queryFn: () => request<SupportAccessListResponse>({ method: 'get', url: '/support-access/list' }),
  });
}

/** `POST support-access` `{hours, reason?}`: grants the system administrators access for 1–72 hours. */
export function useGrantSupportAccess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SupportAccessCreateRequest) =>
      request<SupportAccessListResponse>({ method: 'post', url: '/support-access', data: body }),
    onSuccess: (data) => queryClient.setQueryData(KEY, data),
  });
}

/** `POST support-access/revoke` `{id}`: ends an active grant now. */
export function useRevokeSupportAccess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      request<SupportAccessListResponse>({ method: 'post', url: '/support-access/revoke', data: { id } }),
    onSuccess: (data) => queryClient.setQueryData(KEY, data),
  });
}
