import { DatePicker, Form, type FormItemProps } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { DATE_FORMAT } from './options';

/** A form item whose value is an ISO date string (`YYYY-MM-DD`) edited with a DatePicker. */
export function DateItem({ ariaLabel, ...item }: FormItemProps & { ariaLabel: string }) {
  return (
    <Form.Item
      {...item}
      getValueProps={(value: string | null | undefined) => ({ value: value ? dayjs(value, DATE_FORMAT) : null })}
      normalize={(value: Dayjs | null) => (value ? value.format(DATE_FORMAT) : null)}
    >
      <DatePicker aria-label={ariaLabel} format={DATE_FORMAT} style={{ width: '100%' }} />
    </Form.Item>
  );
}
