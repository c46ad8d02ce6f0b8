import { Form, Input, Modal, Space, Tag, Typography } from 'antd';
import { CHANGE_REASON } from '@registry/shared/contracts/form-record-codes';
import type { ReasonRequest } from './reason-dialog';

/** The reason modal of `useReasonPrompt` (reason-dialog.tsx), loaded when first asked. */
export function ReasonDialog({ request, onDone }: { request: ReasonRequest; onDone: (reason: string | null) => void }) {
  const [form] = Form.useForm<{ reason: string }>();
  const label = request.label ?? '原因';
  const submit = async () => {
    const { reason } = await form.validateFields();
    onDone(reason.trim());
  };
  return (
    <Modal
      open
      title={request.title}
      okText={request.okText ?? '确定'}
      cancelText="取消"
      okButtonProps={{ danger: request.danger }}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={() => onDone(null)}
      destroyOnHidden
      mask={{ closable: false }}
    >
      {request.description && <div style={{ marginBottom: 12 }}>{request.description}</div>}
      <Form form={form} layout="vertical" onFinish={() => void submit()}>
        <Form.Item
          name="reason"
          label={label}
          rules={[
            { required: true, whitespace: true, message: `请填写${label}` },
            { max: CHANGE_REASON.maxLength, message: `${label}不能超过${CHANGE_REASON.maxLength}个字符` },
          ]}
        >
          <Input.TextArea
            autoFocus
            rows={3}
            maxLength={CHANGE_REASON.maxLength}
            showCount
            placeholder="请说明原因（将记录在稽查轨迹中）"
            onKeyDown={(event) => {
              // Ctrl+Enter confirms without leaving the keyboard.
              if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
                event.preventDefault();
                void submit().catch(() => undefined);
              }
            }}
          />
        </Form.Item>
      </Form>
      {request.suggestions && request.suggestions.length > 0 && (
        <Space size={[4, 4]} wrap>
          <Typography.Text type="secondary">常用：</Typography.Text>
          {request.suggestions.map((text) => (
            <Tag.CheckableTag
              key={text}
              checked={false}
              onChange={() => form.setFieldsValue({ reason: text })}
              style={{ border: '1px solid #d9d9d9' }}
            >
              {text}
            </Tag.CheckableTag>
          ))}
        </Space>
      )}
    </Modal>
  );
}
