import { useEffect } from 'react';

/** A key pressed inside a dialog (a reason being typed) is not the form's Ctrl+S. */
function inDialog(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && target.closest('.ant-modal') !== null;
}

/**
 * Ctrl+S (⌘S) saves the form instead of the browser's "save page": `onSave` runs unless the key was pressed in a dialog.
 * `onSave` null leaves the key to the browser (nothing on the page to save).
 */
export function useSaveShortcut(onSave: (() => void) | null) {
  useEffect(() => {
    if (!onSave) return;
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.key.toLowerCase() !== 's') return;
      event.preventDefault();
      if (inDialog(event.target)) return;
      onSave();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onSave]);
}
