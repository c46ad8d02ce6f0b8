import { useEffect, useState } from 'react';

/**
 * `value`, once it has stopped changing for `ms` milliseconds: a search box's keyword, the retrieval page's cohort
 * for its live count. Each change restarts the wait, so a value superseded before `ms` is never returned; a query
 * keyed by the result (TanStack Query) then asks only for the settled value and drops an answer that comes back for
 * an older one.
 */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
