import { DatePicker } from 'antd';
import type { RangePickerProps } from 'antd/es/date-picker';

/** antd's RangePicker, in a module of its own so LazyRangePicker can load it when first used. */
export default function RangePicker(props: RangePickerProps) {
  return <DatePicker.RangePicker {...props} />;
}
