import { useCallback } from 'react';
import { create } from 'zustand';
import { getToken } from '../../../lib/token';
import { useProjectStore } from '../../../lib/stores/project-store';
import { EMPTY_PRIVATE, type PrivateQuery } from './list-query';

type State = { owner: string | null; query: PrivateQuery; set: (owner: string, query: PrivateQuery) => void };

/**
 * The filters that may identify a patient (keyword, hospital number, identity number, PHI field filters) live here, in
 * memory only: never in the address, never in storage. They survive going to a patient and back, not a reload; they
 * belong to one session and project (another sign-in or project starts empty).
 */
const usePrivateStore = create<State>()((set) => ({
  owner: null,
  query: EMPTY_PRIVATE,
  set: (owner, query) => set({ owner, query }),
}));

export function usePrivateQuery(): [PrivateQuery, (next: PrivateQuery) => void] {
  const projectId = useProjectStore((s) => s.projectId);
  const owner = `${getToken() ?? ''}|${projectId ?? ''}`;
  const query = usePrivateStore((s) => (s.owner === owner ? s.query : EMPTY_PRIVATE));
  const store = usePrivateStore((s) => s.set);
  const set = useCallback((next: PrivateQuery) => store(owner, next), [store, owner]);
  return [query, set];
}

/** Forgets the private filters. */
export function clearPrivateQuery(): void {
  usePrivateStore.setState({ owner: null, query: EMPTY_PRIVATE });
}
