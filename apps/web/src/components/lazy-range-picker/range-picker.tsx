import { DatePicker, type GetProps } from 'antd';

type RangePickerProps = GetProps<typeof DatePicker.RangePicker>;

/** antd's RangePicker, in a module of its own so LazyRangePicker can load it when first used. */
export default function RangePicker(props: RangePickerProps) {
  return <DatePicker.RangePicker {...props} />;
}
