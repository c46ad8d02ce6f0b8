import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type {
  AreaPageRequest,
  AreaVO,
  DictOptionPageRequest,
  DictOptionVO,
  DictVO,
} from '@registry/shared/contracts/dictionary';
import type { Page } from '../lib/page';
import { request } from '../lib/request';
import { queryKeys } from './keys';

/**
 * `GET sys-field-dict/list`: the built-in option lists and the tenant's own, with option counts. Fresh for a minute:
 * every change of a list or an option (the dictionary tab) invalidates `queryKeys.dicts.all`.
 */
export function listDicts(): Promise<DictVO[]> {
  return request<DictVO[]>({ method: 'get', url: '/sys-field-dict/list' });
}

export function useDicts(enabled = true) {
  return useQuery({ queryKey: queryKeys.dicts.list, queryFn: listDicts, staleTime: 60_000, enabled });
}

export type DictOptionQuery = Partial<DictOptionPageRequest>;

/** `POST sys-field-dict-option/page`: options of a list (or all visible lists), by keyword or by codes. */
export function pageDictOptions(body: DictOptionQuery): Promise<Page<DictOptionVO>> {
  return request<Page<DictOptionVO>>({ method: 'post', url: '/sys-field-dict-option/page', data: body });
}

export function dictOptionPageQuery(body: DictOptionQuery, enabled = true) {
  return queryOptions({
    queryKey: queryKeys.dictOptions.page(body),
    queryFn: () => pageDictOptions(body),
    enabled,
    placeholderData: keepPreviousData,
  });
}

export function useDictOptionPage(body: DictOptionQuery, enabled = true) {
  return useQuery(dictOptionPageQuery(body, enabled));
}

export type AreaQuery = Partial<AreaPageRequest>;

/** `POST sys-area/page`: provinces (no filter), the children of `parentCode`, a keyword search, or given `codes`. */
export function pageAreas(body: AreaQuery): Promise<Page<AreaVO>> {
  return request<Page<AreaVO>>({ method: 'post', url: '/sys-area/page', data: body });
}
