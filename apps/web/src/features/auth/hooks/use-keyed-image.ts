import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { requestBlob } from '../../../lib/request';

/** A one-time image (captcha, QR code) whose key comes in a response header. */
export type KeyedImage = { key: string; imageUrl: string };

export async function getKeyedImage(url: string, keyHeader: string): Promise<KeyedImage> {
  const { blob, headers } = await requestBlob({ method: 'get', url, params: { t: Date.now() } });
  return { key: headers[keyHeader] ?? '', imageUrl: URL.createObjectURL(blob) };
}

/** Fetches the image once per refetch, never cached, and frees its object URL when it is replaced or unmounted. */
export function useKeyedImage(queryKey: readonly string[], fetchImage: () => Promise<KeyedImage>, enabled: boolean) {
  const query = useQuery({
    queryKey,
    queryFn: fetchImage,
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
