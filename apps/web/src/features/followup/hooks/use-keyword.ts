import { useCallback } from 'react';
import { create } from 'zustand';
import { getToken } from '../../../lib/token';
import { useProjectStore } from '../../../lib/stores/project-store';

type State = { owner: string | null; keyword: string | undefined; set: (owner: string, keyword?: string) => void };

/**
 * The worklist's keyword (a patient number or a name: PHI) lives here, in memory only: never in the address, never in
 * storage. It survives opening a task and coming back, not a reload; it belongs to one session and project.
 */
const useKeywordStore = create<State>()((set) => ({
  owner: null,
  keyword: undefined,
  set: (owner, keyword) => set({ owner, keyword }),
}));

export function useWorklistKeyword(): [string | undefined, (next: string | undefined) => void] {
  const projectId = useProjectStore((s) => s.projectId);
  const owner = `${getToken() ?? ''}|${projectId ?? ''}`;
  const keyword = useKeywordStore((s) => (s.owner === owner ? s.keyword : undefined));
  const store = useKeywordStore((s) => s.set);
  const set = useCallback((next: string | undefined) => store(owner, next), [store, owner]);
  return [keyword, set];
}

export function clearWorklistKeyword(): void {
  useKeywordStore.setState({ owner: null, keyword: undefined });
}
