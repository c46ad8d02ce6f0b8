import { useState } from 'react';
import { Select, Space } from 'antd';
import { LazyDatePicker } from '../lazy-date-picker/lazy-date-picker';
import dayjs from 'dayjs';

export type PartialDatePrecision = 'year' | 'month' | 'date';

const FORMATS: Record<PartialDatePrecision, 'YYYY' | 'YYYY-MM' | 'YYYY-MM-DD'> = {
  year: 'YYYY',
  month: 'YYYY-MM',
  date: 'YYYY-MM-DD',
};
const PRECISION_OPTIONS = [
  { value: 'year', label: '年' },
  { value: 'month', label: '年月' },
  { value: 'date', label: '年月日' },
];
const PATTERNS: [PartialDatePrecision, RegExp][] = [
  ['year', /^\d{4}$/],
  ['month', /^\d{4}-\d{2}$/],
  ['date', /^\d{4}-\d{2}-\d{2}$/],
];

/** The precision of a stored partial date (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`), null when blank or malformed. */
export function partialDatePrecision(value: unknown): PartialDatePrecision | null {
  if (typeof value !== 'string') return null;
  return PATTERNS.find(([, re]) => re.test(value))?.[0] ?? null;
}

export type PartialDateInputProps = {
  id: string;
  ariaLabel: string;
  value: unknown;
  onChange: (value: string | undefined) => void;
  disabled?: boolean;
  status?: 'error' | 'warning';
};

/** A partial date: a precision switch (年 / 年月 / 年月日) and a picker of that precision. */
export function PartialDateInput({ id, ariaLabel, value, onChange, disabled, status }: PartialDateInputProps) {
  const stored = partialDatePrecision(value);
  const [chosen, setChosen] = useState<PartialDatePrecision>(stored ?? 'date');
  const precision = stored ?? chosen;
  const parsed = stored ? dayjs(value as string) : null;

  const changePrecision = (next: PartialDatePrecision) => {
    setChosen(next);
    if (!stored || next === stored) return;
    const order: PartialDatePrecision[] = ['year', 'month', 'date'];
    // Coarser keeps what is known; finer cannot invent the missing part, so the value waits for a new pick.
    if (order.indexOf(next) < order.indexOf(stored)) onChange((value as string).slice(0, FORMATS[next].length));
    else onChange(undefined);
  };

  return (
    <Space.Compact style={{ width: '100%' }}>
      <Select<PartialDatePrecision>
        aria-label={`${ariaLabel}精度`}
        value={precision}
        options={PRECISION_OPTIONS}
        onChange={changePrecision}
        disabled={disabled}
        style={{ width: 96 }}
      />
      <LazyDatePicker
        key={precision}
        id={id}
        aria-label={ariaLabel}
        picker={precision}
        format={FORMATS[precision]}
        value={parsed?.isValid() ? parsed : null}
        onChange={(d) => onChange(d ? d.format(FORMATS[precision]) : undefined)}
        disabled={disabled}
        status={status}
        style={{ flex: 1 }}
      />
    </Space.Compact>
  );
}
