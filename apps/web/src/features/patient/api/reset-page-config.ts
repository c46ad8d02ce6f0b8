import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PageKey } from '@registry/shared/contracts/page-config';
import { request } from '../../../lib/request';
import { pageConfigKeys } from './get-page-config';

/** `DELETE page-config-custom?pageKey=`: back to the page's default layout. */
export function resetPageConfig(pageKey: PageKey): Promise<unknown> {
  return request<unknown>({ method: 'delete', url: '/page-config-custom', params: { pageKey } });
}

export function useResetPageConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetPageConfig,
    onSuccess: (_data, pageKey) => queryClient.setQueryData(pageConfigKeys.one(pageKey), { pageKey, config: null }),
  });
}
