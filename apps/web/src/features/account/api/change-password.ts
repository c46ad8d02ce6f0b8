import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordRequest } from '@registry/shared/contracts/user';
import { request } from '../../../lib/request';

export function changePassword(body: ChangePasswordRequest): Promise<unknown> {
  return request<unknown>({ method: 'post', url: '/sys-user/change-pwd', data: body });
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
