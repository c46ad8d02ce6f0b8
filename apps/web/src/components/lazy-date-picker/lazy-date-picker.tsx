import { useEffect, useRef, useState, type ComponentType, type CSSProperties, type KeyboardEvent } from 'react';
import { Input, Tooltip, type DatePickerProps } from 'antd';
import { CalendarOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { parseTypedDate, type TypedDateFormat } from './typed-date';

type PickerComponent = ComponentType<DatePickerProps>;

/** antd's DatePicker once loaded (every LazyDatePicker of the page shares it). */
let loadedPicker: PickerComponent | null = null;
let loading: Promise<PickerComponent> | null = null;

function loadPicker(): Promise<PickerComponent> {
  if (loadedPicker) return Promise.resolve(loadedPicker);
  loading ??= import('./date-picker').then(
    (module) => (loadedPicker = module.default),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

export type LazyDatePickerProps = {
  /** Set by Form.Item, or by the caller. */
  value?: Dayjs | null;
  onChange?: (value: Dayjs | null) => void;
  picker?: 'date' | 'month' | 'year';
  /** A date and a time (`YYYY-MM-DD HH:mm`). */
  showTime?: boolean;
  /** The display format; by default that of the picker (and of showTime). */
  format?: TypedDateFormat;
  id?: string;
  'aria-label': string;
  'aria-required'?: boolean;
  'aria-invalid'?: boolean;
  status?: 'error' | 'warning';
  disabled?: boolean;
  /** false: the date cannot be emptied (an emptied text goes back to the value). */
  allowClear?: boolean;
  placeholder?: string;
  /** Dates that cannot be chosen, nor typed. */
  disabledDate?: (date: Dayjs) => boolean;
  style?: CSSProperties;
};

function defaultFormat(picker: LazyDatePickerProps['picker'], showTime: boolean | undefined): TypedDateFormat {
  if (showTime) return 'YYYY-MM-DD HH:mm';
  return picker === 'year' ? 'YYYY' : picker === 'month' ? 'YYYY-MM' : 'YYYY-MM-DD';
}

/**
 * A date input whose calendar (antd's DatePicker with dayjs's panels, about 24 KiB gzip) loads when the user first
 * reaches for it, not with the page — the way REDCap's date fields work: a text box that takes a typed date
 * (`2026-03-05`, also `2026/3/5`, `20260305`), checked when it is left or on Enter, and a calendar on demand. A click,
 * the calendar icon or ↓ loads the calendar and swaps in antd's DatePicker, focused and open; the box stays in place
 * until it is there, and typing in it meanwhile keeps the box (the user chose to type). A typed date that is no date, or a disabled one, stays in the box marked
 * as an error, never silently dropped nor stored. If the calendar cannot load, typing still works.
 */
export function LazyDatePicker(props: LazyDatePickerProps) {
  const { value, onChange, picker, showTime, id, status, disabled, allowClear, disabledDate, style } = props;
  const format = props.format ?? defaultFormat(picker, showTime);
  const placeholder = props.placeholder ?? format;
  const [Picker, setPicker] = useState<PickerComponent | null>(null);
  const [wanted, setWanted] = useState(false);
  // What is typed and not yet taken (null: the box shows the value).
  const [text, setText] = useState<string | null>(null);
  const [invalid, setInvalid] = useState(false);
  const latest = useRef({ text, value, onChange, disabledDate, allowClear, format });
  useEffect(() => {
    latest.current = { text, value, onChange, disabledDate, allowClear, format };
  });

  /** Takes the typed text: the date it names becomes the value; false when it names none (it then stays, marked). */
  const commit = (): boolean => {
    const current = latest.current;
    if (current.text === null) return true;
    const parsed = parseTypedDate(current.text, current.format);
    if (parsed === 'invalid' || (parsed !== null && current.disabledDate?.(parsed))) {
      setInvalid(true);
      return false;
    }
    setText(null);
    setInvalid(false);
    latest.current = { ...current, text: null };
    if (parsed === null && current.allowClear === false) return true;
    const same = parsed === null ? !current.value : current.value?.isSame(parsed, 'minute') === true;
    if (!same) current.onChange?.(parsed);
    return true;
  };

  const activate = () => {
    if (disabled) return;
    // A date typed and then a click on the calendar: the calendar opens on that date (an invalid text is dropped).
    if (!commit()) {
      setText(null);
      setInvalid(false);
    }
    setWanted(true);
    loadPicker().then(
      (component) => setPicker(() => component),
      () => setWanted(false),
    );
  };

  if (wanted && Picker) {
    return (
      <Picker
        id={id}
        aria-label={props['aria-label']}
        aria-required={props['aria-required']}
        aria-invalid={props['aria-invalid']}
        value={value ?? null}
        onChange={(next) => onChange?.((next as Dayjs | null) ?? null)}
        picker={picker}
        showTime={showTime ? { format: 'HH:mm' } : undefined}
        format={format}
        status={status}
        disabled={disabled}
        allowClear={allowClear}
        placeholder={placeholder}
        disabledDate={disabledDate}
        style={style}
        autoFocus
        defaultOpen
      />
    );
  }

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      activate();
    } else if (event.key === 'Enter') {
      // Enter takes the typed date, and never submits a surrounding form from here.
      event.preventDefault();
      commit();
    } else if (event.key === 'Escape' && text !== null) {
      setText(null);
      setInvalid(false);
    }
  };

  return (
    <Tooltip open={invalid} title={`不是有效的日期，请按 ${format} 填写`} placement="topLeft">
      <Input
        id={id}
        aria-label={props['aria-label']}
        aria-required={props['aria-required']}
        aria-invalid={invalid || props['aria-invalid'] || undefined}
        aria-haspopup="dialog"
        className="lazy-date-picker"
        value={text ?? (value ? value.format(format) : '')}
        placeholder={placeholder}
        status={invalid ? 'error' : status}
        disabled={disabled}
        style={style}
        autoComplete="off"
        suffix={
          <CalendarOutlined
            aria-hidden
            style={{ color: 'rgba(0, 0, 0, 0.25)', cursor: disabled ? 'not-allowed' : 'pointer' }}
            onMouseDown={(event) => event.preventDefault()}
            onClick={activate}
          />
        }
        onChange={(event) => {
          setText(event.target.value);
          setInvalid(false);
          // Typing before the calendar came: the box keeps the typing, the calendar waits for the next click or ↓.
          setWanted(false);
        }}
        onBlur={() => void commit()}
        onClick={activate}
        onKeyDown={onKeyDown}
      />
    </Tooltip>
  );
}
