import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LoginOptions } from '@registry/shared/contracts/auth';
import { request } from '../../../lib/request';

export function getLoginOptions(): Promise<LoginOptions> {
  return request<LoginOptions>({ method: 'get', url: '/auth/login-options' });
}

export const loginOptionsQuery = () =>
  queryOptions({ queryKey: ['auth', 'login-options'], queryFn: getLoginOptions, staleTime: 5 * 60_000 });

export function useLoginOptions() {
  return useQuery(loginOptionsQuery());
}
