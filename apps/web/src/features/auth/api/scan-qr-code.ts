import { useMutation } from '@tanstack/react-query';
import { request } from '../../../lib/request';

/** `POST auth/qr-code/scan`: a signed-in phone opened the code's link. */
export function scanQrCode(key: string): Promise<unknown> {
  return request<unknown>({ method: 'post', url: '/auth/qr-code/scan', data: { key } });
}

export function useScanQrCode() {
  return useMutation({ mutationFn: scanQrCode });
}
