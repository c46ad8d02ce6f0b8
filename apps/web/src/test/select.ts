import { isInaccessible, screen, waitFor } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';

/**
 * The shown antd Select labelled `label` (its Form.Item label or aria-label). Found by label, not by role: a role query
 * computes the role of every element of the page (a table page behind a dialog is thousands), the label query reads
 * only labels; the visibility check then runs on the one or two candidates.
 */
async function findCombobox(label: string): Promise<HTMLElement> {
  return waitFor(() => {
    const shown = screen
      .queryAllByLabelText(label, { selector: '[role="combobox"]' })
      .filter((element) => !isInaccessible(element));
    if (shown.length !== 1) throw new Error(`找到 ${shown.length} 个标为「${label}」的下拉框`);
    return shown[0] as HTMLElement;
  });
}

/** Opens the antd Select labelled `label` and picks the option whose text is `option`. */
export async function chooseOption(user: UserEvent, label: string, option: string | RegExp): Promise<void> {
  const combobox = await findCombobox(label);
  await user.click(combobox);
  const match = (el: Element) =>
    el.classList.contains('ant-select-item-option') &&
    (typeof option === 'string' ? el.textContent === option : option.test(el.textContent ?? ''));
  let target: Element | undefined;
  await waitFor(() => {
    target = [...document.querySelectorAll('.ant-select-item-option')].find(match);
    if (!target) throw new Error(`没有选项 ${String(option)}`);
  });
  await user.click(target as Element);
}
