import { Form, InputNumber, Space } from 'antd';
import type { FormItemProps } from 'antd';

type NamePath = NonNullable<FormItemProps['name']>;

const windowRule = [{ required: true, message: '请输入窗口期' }];

/** The window of a visit: −before / +after days around its due date. */
export function WindowInputs({ before, after, label }: { before: NamePath; after: NamePath; label: string }) {
  return (
    <Space size={4} align="start">
      <Form.Item name={before} rules={windowRule} style={{ marginBottom: 0 }}>
        <InputNumber
          aria-label={`${label}窗口期提前天数`}
          min={0}
          max={365}
          precision={0}
          prefix="−"
          style={{ width: 84 }}
        />
      </Form.Item>
      <Form.Item name={after} rules={windowRule} style={{ marginBottom: 0 }}>
        <InputNumber
          aria-label={`${label}窗口期延后天数`}
          min={0}
          max={365}
          precision={0}
          prefix="+"
          style={{ width: 84 }}
        />
      </Form.Item>
    </Space>
  );
}
