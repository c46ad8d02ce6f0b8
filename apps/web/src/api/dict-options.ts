import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { DictOptionPageRequest, DictOptionVO } from '@registry/shared/contracts/dictionary';
import type { Page } from '../lib/page';
import { request } from '../lib/request';

export const dictOptionKeys = {
  all: ['sys-field-dict-option'] as const,
  page: (body: Partial<DictOptionPageRequest>) => ['sys-field-dict-option', 'page', body] as const,
};

export type DictOptionQuery = Partial<DictOptionPageRequest>;

/** `POST sys-field-dict-option/page`: options of a list (or all visible lists), by keyword or by codes. */
export function pageDictOptions(body: DictOptionQuery): Promise<Page<DictOptionVO>> {
  return request<Page<DictOptionVO>>({ method: 'post', url: '/sys-field-dict-option/page', data: body });
}

export function dictOptionPageQuery(body: DictOptionQuery, enabled = true) {
  return queryOptions({
    queryKey: dictOptionKeys.page(body),
    queryFn: () => pageDictOptions(body),
    enabled,
    placeholderData: keepPreviousData,
  });
}

export function useDictOptionPage(body: DictOptionQuery, enabled = true) {
  return useQuery(dictOptionPageQuery(body, enabled));
}
