import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button, Form } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { LazyDatePicker } from './lazy-date-picker';

const DATE = 'YYYY-MM-DD';

function Controlled({ initial = null, changes }: { initial?: Dayjs | null; changes: (Dayjs | null)[] }) {
  const [value, setValue] = useState<Dayjs | null>(initial);
  return (
    <LazyDatePicker
      aria-label="入院日期"
      value={value}
      disabledDate={(d) => d.isAfter(dayjs('2026-06-30'), 'day')}
      onChange={(next) => {
        changes.push(next);
        setValue(next);
      }}
    />
  );
}

const dropdown = () => document.querySelector('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)');

describe('LazyDatePicker', () => {
  it('should take a typed date on Enter and on leaving the box, without loading the calendar', async () => {
    const user = userEvent.setup({ delay: null });
    const changes: (Dayjs | null)[] = [];
    render(<Controlled changes={changes} />);
    const box = screen.getByLabelText('入院日期');
    expect(box).toHaveAttribute('placeholder', 'YYYY-MM-DD');
    await user.tab();
    await user.keyboard('2026/3/5{Enter}');
    expect(changes.map((d) => d?.format(DATE))).toEqual(['2026-03-05']);
    expect(box).toHaveValue('2026-03-05');
    await user.keyboard('{Control>}a{/Control}20260401');
    await user.tab();
    expect(changes.map((d) => d?.format(DATE))).toEqual(['2026-03-05', '2026-04-01']);
    expect(document.querySelector('.ant-picker')).toBeNull();
  });

  it('should keep a typed text that is no date, marked as an error, and store nothing', async () => {
    const user = userEvent.setup({ delay: null });
    const changes: (Dayjs | null)[] = [];
    render(<Controlled initial={dayjs('2026-03-05')} changes={changes} />);
    const box = screen.getByLabelText('入院日期');
    await user.tab();
    await user.keyboard('{Control>}a{/Control}2026-02-30');
    await user.tab();
    expect(box).toHaveValue('2026-02-30');
    expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(await screen.findByText('不是有效的日期，请按 YYYY-MM-DD 填写')).toBeInTheDocument();
    // A date the field refuses (after 2026-06-30) is not taken either.
    await user.click(document.body);
    await user.tab();
    await user.keyboard('{Control>}a{/Control}2026-07-01{Enter}');
    expect(box).toHaveAttribute('aria-invalid', 'true');
    // Emptied and left: the date is cleared.
    await user.keyboard('{Control>}a{/Control}{Backspace}');
    await user.tab();
    expect(changes).toEqual([null]);
    expect(box).not.toHaveAttribute('aria-invalid');
  });

  it('should not submit a surrounding form on Enter', async () => {
    const user = userEvent.setup({ delay: null });
    const submitted: unknown[] = [];
    render(
      <Form onFinish={(values) => submitted.push(values)}>
        <Form.Item name="enrol" label="入组日期">
          <LazyDatePicker aria-label="入组日期" />
        </Form.Item>
        <Button htmlType="submit">保存</Button>
      </Form>,
    );
    await user.tab();
    await user.keyboard('2026-03-05{Enter}');
    expect(submitted).toEqual([]);
    await user.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(submitted).toHaveLength(1));
    expect((submitted[0] as { enrol: Dayjs }).enrol.format(DATE)).toBe('2026-03-05');
  });

  it('should open the real calendar, focused, on a click, and take the date picked in it', async () => {
    const user = userEvent.setup({ delay: null });
    const changes: (Dayjs | null)[] = [];
    render(<Controlled initial={dayjs('2026-03-05')} changes={changes} />);
    await user.click(screen.getByLabelText('入院日期'));
    await waitFor(() => expect(dropdown()).not.toBeNull(), { timeout: 20_000 });
    expect(document.querySelector('.ant-picker input')).toHaveFocus();
    expect(document.querySelector('.ant-picker input')).toHaveValue('2026-03-05');
    await user.click(document.querySelector('.ant-picker-dropdown td[title="2026-03-12"]') as HTMLElement);
    expect(changes.map((d) => d?.format(DATE))).toEqual(['2026-03-12']);
  });

  it('should open the calendar on ↓, and take first a date typed before it', async () => {
    const user = userEvent.setup({ delay: null });
    const changes: (Dayjs | null)[] = [];
    render(<Controlled changes={changes} />);
    await user.tab();
    await user.keyboard('2026-04-02{ArrowDown}');
    await waitFor(() => expect(dropdown()).not.toBeNull(), { timeout: 20_000 });
    expect(changes.map((d) => d?.format(DATE))).toEqual(['2026-04-02']);
    expect(document.querySelector('.ant-picker input')).toHaveValue('2026-04-02');
  });

  it('should neither take input nor open when disabled', async () => {
    const user = userEvent.setup({ delay: null });
    render(<LazyDatePicker aria-label="出生日期" disabled />);
    await user.click(screen.getByLabelText('出生日期'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(document.querySelector('.ant-picker')).toBeNull();
    expect(screen.getByLabelText('出生日期')).toBeDisabled();
  });
});
