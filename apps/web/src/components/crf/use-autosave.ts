import { useEffect } from 'react';

/** How long typing must pause before a draft saves itself. */
export const AUTOSAVE_DELAY_MS = 2000;

/**
 * A draft that saves itself: `save` runs {@link AUTOSAVE_DELAY_MS} after the last change of `data`, while `enabled`
 * (the record may be saved without a reason: not submitted, not locked, no conflict) and `dirty`. Every change restarts
 * the wait. Shared by the patient editor and the follow-up task's forms.
 */
export function useAutosave({
  enabled,
  dirty,
  data,
  save,
}: {
  enabled: boolean;
  dirty: boolean;
  data: unknown;
  save: () => unknown;
}) {
  useEffect(() => {
    if (!enabled || !dirty) return;
    const timer = setTimeout(() => void save(), AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [enabled, dirty, data, save]);
}
