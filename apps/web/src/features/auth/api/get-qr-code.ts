import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { QR_KEY_HEADER } from '@registry/shared/contracts/auth';
import { requestBlob } from '../../../lib/request';

export type QrCode = { key: string; imageUrl: string };

/** `GET auth/qr-code`: a PNG of a one-time sign-in code; its key comes in the `x-qr-key` header. */
export async function getQrCode(): Promise<QrCode> {
  const { blob, headers } = await requestBlob({ method: 'get', url: '/auth/qr-code', params: { t: Date.now() } });
  return { key: headers[QR_KEY_HEADER] ?? '', imageUrl: URL.createObjectURL(blob) };
}

export function useQrCode(enabled: boolean) {
  const query = useQuery({
    queryKey: ['auth', 'qr-code'],
    queryFn: getQrCode,
    enabled,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });
  const imageUrl = query.data?.imageUrl;
  useEffect(() => () => (imageUrl ? URL.revokeObjectURL(imageUrl) : undefined), [imageUrl]);
  return query;
}
