import { keepPreviousData, queryOptions, useQueries, useQuery } from '@tanstack/react-query';
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

/** The most codes one column asks labels for. */
export const MAX_LABELLED_CODES = 200;

/**
 * The labels of the dictionary codes a page shows, per column key: one `sys-field-dict-option/page` call per column
 * asking for exactly its codes (at most MAX_LABELLED_CODES). A code with no label shows as it is. Used by the tables
 * that show dictionary columns (the patient list, the retrieval result).
 */
export function useDictCodeLabels(
  wanted: readonly { key: string; dictCode: string; codes: readonly string[] }[],
): ReadonlyMap<string, ReadonlyMap<string, string>> {
  return useQueries({
    queries: wanted.map((w) => {
      const codes = w.codes.slice(0, MAX_LABELLED_CODES);
      return { ...dictOptionPageQuery({ dictCode: w.dictCode, codes, size: codes.length }), staleTime: 5 * 60_000 };
    }),
    combine: (results) => {
      const out = new Map<string, Map<string, string>>();
      wanted.forEach((w, i) => {
        const labels = new Map<string, string>();
        for (const option of results[i]?.data?.records ?? []) labels.set(option.code, option.label);
        out.set(w.key, labels);
      });
      return out;
    },
  });
}
