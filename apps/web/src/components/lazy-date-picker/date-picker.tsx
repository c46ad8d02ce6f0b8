import { DatePicker as AntdDatePicker, type DatePickerProps } from 'antd';

/** antd's DatePicker, in a module of its own so LazyDatePicker can load it when first used. */
export default function DatePicker(props: DatePickerProps) {
  return <AntdDatePicker {...props} />;
}
