import { request } from '../../../lib/request';

/** `GET auth/change?tenantCode=` (system tenant only). */
export function changeTenant(tenantCode: string): Promise<unknown> {
  return request<unknown>({ method: 'get', url: '/auth/change', params: { tenantCode } });
}
