import { screen, waitFor } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';

/** Opens the antd Select labelled `label` and picks the option whose text is `option`. */
export async function chooseOption(user: UserEvent, label: string, option: string | RegExp): Promise<void> {
  const combobox = await screen.findByRole('combobox', { name: label });
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
