import { useQuery } from '@tanstack/react-query';
import type { AreaPageRequest, AreaVO, DictVO } from '@registry/shared/contracts/dictionary';
import type { Page } from '../lib/page';
import { request } from '../lib/request';

export const dictKeys = {
  all: ['sys-field-dict'] as const,
  list: ['sys-field-dict', 'list'] as const,
};

export const areaKeys = {
  page: (body: Partial<AreaPageRequest>) => ['sys-area', 'page', body] as const,
};

/**
 * `GET sys-field-dict/list`: the built-in option lists and the tenant's own, with option counts. Fresh for a minute:
 * every change of a list or an option (the dictionary tab) invalidates `dictKeys.all`.
 */
export function listDicts(): Promise<DictVO[]> {
  return request<DictVO[]>({ method: 'get', url: '/sys-field-dict/list' });
}

export function useDicts(enabled = true) {
  return useQuery({ queryKey: dictKeys.list, queryFn: listDicts, staleTime: 60_000, enabled });
}

export type AreaQuery = Partial<AreaPageRequest>;

/** `POST sys-area/page`: provinces (no filter), the children of `parentCode`, a keyword search, or given `codes`. */
export function pageAreas(body: AreaQuery): Promise<Page<AreaVO>> {
  return request<Page<AreaVO>>({ method: 'post', url: '/sys-area/page', data: body });
}
