import type { AreaPageRequest, AreaVO } from '@registry/shared/contracts/dictionary';
import type { Page } from '../../lib/page';
import { request } from '../../lib/request';

export type AreaQuery = Partial<AreaPageRequest>;

/** `POST sys-area/page`: provinces (no filter), the children of `parentCode`, a keyword search, or given `codes`. */
export function pageAreas(body: AreaQuery): Promise<Page<AreaVO>> {
  return request<Page<AreaVO>>({ method: 'post', url: '/sys-area/page', data: body });
}

export const areaKeys = {
  page: (body: AreaQuery) => ['sys-area', 'page', body] as const,
};
