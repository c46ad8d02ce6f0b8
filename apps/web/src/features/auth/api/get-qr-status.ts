import { useQuery } from '@tanstack/react-query';
import type { QrStatusResponse } from '@registry/shared/contracts/auth';
import { request } from '../../../lib/request';

export const QR_POLL_INTERVAL_MS = 2000;

export function getQrStatus(key: string): Promise<QrStatusResponse> {
  return request<QrStatusResponse>({ method: 'get', url: '/auth/qr-code/status', params: { key } });
}

/** Polls every 2 s while the code is pending or scanned; stops once it is confirmed or expired. */
export function useQrStatus(key: string | undefined) {
  return useQuery({
    queryKey: ['auth', 'qr-status', key],
    queryFn: () => getQrStatus(key ?? ''),
    enabled: Boolean(key),
    gcTime: 0,
    retry: false,
    refetchInterval: (query) => {
      const state = query.state.data?.state;
      return state === 'confirmed' || state === 'expired' ? false : QR_POLL_INTERVAL_MS;
    },
  });
}
