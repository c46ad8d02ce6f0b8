import { useMutation } from '@tanstack/react-query';
import type { LoginRequest, LoginResponse } from '@registry/shared/contracts/auth';
import { request } from '../../../lib/request';

export function login(body: LoginRequest): Promise<LoginResponse> {
  return request<LoginResponse>({ method: 'post', url: '/auth/login', data: body });
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
