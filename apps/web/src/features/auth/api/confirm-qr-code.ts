import { useMutation } from '@tanstack/react-query';
import { request } from '../../../lib/request';

/** `POST auth/qr-code/confirm`: the signed-in phone confirms the sign-in of the computer. */
export function confirmQrCode(key: string): Promise<unknown> {
  return request<unknown>({ method: 'post', url: '/auth/qr-code/confirm', data: { key } });
}

export function useConfirmQrCode() {
  return useMutation({ mutationFn: confirmQrCode });
}
