import type { ReactNode } from 'react';

/** The state of the query behind a list (a TanStack Query result fits). */
export type ListQueryState = { isPending: boolean; isError: boolean };

export const LIST_LOADING_TEXT = '加载中…';
export const LIST_FAILED_TEXT = '加载失败，请稍后重试';

/**
 * What an empty list, card or count says: 加载中… while its data has not arrived, 加载失败 when it could not be read,
 * and only then its own "nothing here" text — never a false 暂无 while the answer is on its way.
 */
export function listEmptyText(query: ListQueryState, empty: ReactNode): ReactNode {
  if (query.isPending && !query.isError) return LIST_LOADING_TEXT;
  if (query.isError) return LIST_FAILED_TEXT;
  return empty;
}
