import { useQuery } from '@tanstack/react-query';
import type { DictVO } from '@registry/shared/contracts/dictionary';
import { request } from '../../../lib/request';

/** `GET sys-field-dict/list`: the built-in lists and the tenant's own, with option counts. */
export function listDicts(): Promise<DictVO[]> {
  return request<DictVO[]>({ method: 'get', url: '/sys-field-dict/list' });
}

export const dictKeys = { all: ['sys-field-dict'] as const, list: ['sys-field-dict', 'list'] as const };

export function useDicts() {
  return useQuery({ queryKey: dictKeys.list, queryFn: listDicts });
}
