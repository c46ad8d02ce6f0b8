import { request } from '../../../lib/request';

/**
 * `POST auth/logout` with the given token: the caller has already cleared the stored token (so nothing else fires
 * with it), and a refusal (an expired session) is nobody's concern, hence no toast and no redirect.
 */
export function logout(token: string): Promise<unknown> {
  return request<unknown>({
    method: 'post',
    url: '/auth/logout',
    headers: { Authorization: `Bearer ${token}` },
    registry: { silent: true },
  });
}
