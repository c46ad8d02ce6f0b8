import { useQuery } from '@tanstack/react-query';
import type { DictVO } from '@registry/shared/contracts/dictionary';
import { request } from '../../../lib/request';

/** `GET sys-field-dict/list`: the built-in option lists and the tenant's own. */
export function listDicts(): Promise<DictVO[]> {
  return request<DictVO[]>({ method: 'get', url: '/sys-field-dict/list' });
}

export function useDicts(enabled = true) {
  return useQuery({ queryKey: ['sys-field-dict', 'list'], queryFn: listDicts, staleTime: 60_000, enabled });
}
