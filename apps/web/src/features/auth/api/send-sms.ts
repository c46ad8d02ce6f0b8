import { useMutation } from '@tanstack/react-query';
import { request } from '../../../lib/request';

/** `GET auth/sms?phone=`: sends a sign-in code to the phone. */
export function sendSms(phone: string): Promise<unknown> {
  return request<unknown>({ method: 'get', url: '/auth/sms', params: { phone } });
}

export function useSendSms() {
  return useMutation({ mutationFn: sendSms });
}
