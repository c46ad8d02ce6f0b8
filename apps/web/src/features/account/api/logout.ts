import { request } from '../../../lib/request';

export function logout(): Promise<unknown> {
  return request<unknown>({ method: 'post', url: '/auth/logout' });
}
