import { lazy, Suspense, useState, type CSSProperties, type KeyboardEvent } from 'react';
import { Input } from 'antd';
import { CalendarOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';

const loadPicker = () => import('./range-picker');
const RangePicker = lazy(loadPicker);

export type DateRange = [Dayjs | null, Dayjs | null] | null;

export type LazyRangePickerProps = {
  /** Set by Form.Item. */
  value?: DateRange;
  onChange?: (value: DateRange) => void;
  'aria-label': string;
  style?: CSSProperties;
};

const DATE = 'YYYY-MM-DD';
const START = '开始日期';
const END = '结束日期';

/** The range as the stand-in shows it, or '' when neither end is set (the placeholder shows). */
export function rangeText(value: DateRange | undefined): string {
  const [from, to] = value ?? [null, null];
  if (!from && !to) return '';
  return `${from ? from.format(DATE) : START} → ${to ? to.format(DATE) : END}`;
}

/**
 * A date range filter whose calendar (antd's RangePicker with dayjs's panels, about 24 KiB gzip) loads when the user
 * first reaches for it, not with the page: until then a read-only box styled like the picker shows the range (or the
 * placeholders). Focusing the box starts loading the picker; a click, Enter, Space, ↓ or a typed character swaps in the
 * real picker, focused and open, so keyboard users get the same calendar as mouse users.
 */
export function LazyRangePicker({ value, onChange, style, 'aria-label': label }: LazyRangePickerProps) {
  const [active, setActive] = useState(false);
  const activate = () => setActive(true);
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Enter, Space, ↓, or starting to type a date: the calendar opens, focused (the first character opens it).
    const typing = event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey;
    if (typing || event.key === 'Enter' || event.key === 'ArrowDown') {
      event.preventDefault();
      activate();
    }
  };
  const standIn = (
    <Input
      readOnly
      aria-label={label}
      aria-haspopup="dialog"
      aria-expanded={false}
      className="lazy-range-picker"
      style={{ cursor: 'pointer', ...style }}
      value={rangeText(value)}
      placeholder={`${START} → ${END}`}
      suffix={<CalendarOutlined style={{ color: 'rgba(0, 0, 0, 0.25)' }} />}
      onFocus={() => void loadPicker()}
      onClick={activate}
      onKeyDown={onKeyDown}
    />
  );
  if (!active) return standIn;
  return (
    <Suspense fallback={standIn}>
      <RangePicker
        allowEmpty={[true, true]}
        aria-label={label}
        style={style}
        value={value ?? null}
        onChange={(next) => onChange?.(next ?? null)}
        autoFocus
        defaultOpen
      />
    </Suspense>
  );
}
