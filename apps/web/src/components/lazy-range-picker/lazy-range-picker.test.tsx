import { describe, expect, it } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button, Form } from 'antd';
import dayjs from 'dayjs';
import { LazyRangePicker, type DateRange } from './lazy-range-picker';

const DATE = 'YYYY-MM-DD';

function renderForm(initial: DateRange, submitted: DateRange[] = []) {
  const user = userEvent.setup({ delay: null });
  render(
    <Form<{ due: DateRange }> initialValues={{ due: initial }} onFinish={(v) => submitted.push(v.due)}>
      <Form.Item name="due" label="应随访日期">
        <LazyRangePicker aria-label="应随访日期" />
      </Form.Item>
      <Button htmlType="submit">查询</Button>
    </Form>,
  );
  return { user, submitted };
}

/** The picker's popup once open. */
const dropdown = () => document.querySelector('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)');
const cell = (date: string) => document.querySelector(`.ant-picker-dropdown td[title="${date}"]`) as HTMLElement;

describe('LazyRangePicker', () => {
  it('should show the range it was given until the user reaches for the calendar', async () => {
    renderForm([dayjs('2026-11-01', DATE), dayjs('2026-11-24', DATE)]);
    // Even once the calendar's module is there, the stand-in stays until used.
    await act(async () => {
      await import('./range-picker');
    });
    expect(screen.getByLabelText('应随访日期')).toHaveValue('2026-11-01 → 2026-11-24');
    expect(document.querySelector('.ant-picker')).toBeNull();
  });

  it('should show 开始日期 → 结束日期 with no range', () => {
    renderForm(null);
    expect(screen.getByLabelText('应随访日期')).toHaveAttribute('placeholder', '开始日期 → 结束日期');
    expect(screen.getByLabelText('应随访日期')).toHaveValue('');
  });

  it('should open the real picker on click and let the user pick a range', async () => {
    const { user, submitted } = renderForm([dayjs('2026-11-01', DATE), dayjs('2026-11-24', DATE)]);
    await user.click(screen.getByLabelText('应随访日期'));
    await waitFor(() => expect(dropdown()).not.toBeNull(), { timeout: 20_000 });
    const [start, end] = Array.from(document.querySelectorAll<HTMLInputElement>('.ant-picker input'));
    expect(start).toHaveValue('2026-11-01');
    expect(end).toHaveValue('2026-11-24');
    expect(start).toHaveFocus();
    await user.click(cell('2026-11-10'));
    await user.click(cell('2026-11-20'));
    await user.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(submitted).toHaveLength(1));
    expect(submitted[0]?.map((d) => d?.format(DATE))).toEqual(['2026-11-10', '2026-11-20']);
  });

  it.each(['{Enter}', '{ArrowDown}', ' ', '2'])('should open the picker, focused, on Tab then %s', async (key) => {
    const { user } = renderForm(null);
    await user.tab();
    expect(screen.getByLabelText('应随访日期')).toHaveFocus();
    await user.keyboard(key);
    await waitFor(() => expect(dropdown()).not.toBeNull(), { timeout: 20_000 });
    expect(document.querySelector('.ant-picker input')).toHaveFocus();
  });
});
