import { QR_KEY_HEADER } from '@registry/shared/constants';
import { getKeyedImage, useKeyedImage, type KeyedImage } from '../hooks/use-keyed-image';

export type QrCode = KeyedImage;

/** `GET auth/qr-code`: a PNG of a one-time sign-in code; its key comes in the `x-qr-key` header. */
export function getQrCode(): Promise<QrCode> {
  return getKeyedImage('/auth/qr-code', QR_KEY_HEADER);
}

export function useQrCode(enabled: boolean) {
  return useKeyedImage(['auth', 'qr-code'], getQrCode, enabled);
}
