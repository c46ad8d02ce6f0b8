/** Scrolls to the first field showing an error and puts the cursor in it. */
export function focusFirstIssue(root: HTMLElement | null) {
  window.setTimeout(() => {
    const item = root?.querySelector<HTMLElement>('.crf-field-has-error, .crf-issue-hard');
    if (!item) return;
    item.scrollIntoView?.({ block: 'center' });
    const container = item.closest('.crf-field, td') ?? item;
    container.querySelector<HTMLElement>('input, textarea, [contenteditable="true"], .ant-select-selector')?.focus();
  }, 0);
}

/** The input of a data point inside the editor: the renderer's ids are `<prefix>-<key>` (`-<row>-<column>` in a group). */
function fieldElement(root: HTMLElement | null, path: string): HTMLElement | undefined {
  const suffix = `-${path.split('.').join('-')}`;
  return [...(root?.querySelectorAll<HTMLElement>('[id]') ?? [])].find(
    (el) => el.id.endsWith(suffix) && /^crf[A-Za-z0-9_]*$/.test(el.id.slice(0, -suffix.length)),
  );
}

/** Scrolls a data point into view, marks its field and puts the cursor in it. */
export function focusPoint(root: HTMLElement | null, path: string) {
  const input = fieldElement(root, path);
  if (!input) return;
  const item = input.closest<HTMLElement>('.crf-field, td') ?? input;
  item.scrollIntoView?.({ block: 'center' });
  item.classList.add('record-field-focus');
  input.focus({ preventScroll: true });
}
