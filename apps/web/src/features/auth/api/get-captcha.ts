import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { CAPTCHA_KEY_HEADER } from '@registry/shared/contracts/auth';
import { requestBlob } from '../../../lib/request';

export type Captcha = { key: string; imageUrl: string };

/** `GET auth/captcha`: an SVG image; the one-time key comes in the `x-captcha-key` header. */
export async function getCaptcha(): Promise<Captcha> {
  const { blob, headers } = await requestBlob({ method: 'get', url: '/auth/captcha', params: { t: Date.now() } });
  return { key: headers[CAPTCHA_KEY_HEADER] ?? '', imageUrl: URL.createObjectURL(blob) };
}

export function useCaptcha(enabled: boolean) {
  const query = useQuery({
    queryKey: ['auth', 'captcha'],
    queryFn: getCaptcha,
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
