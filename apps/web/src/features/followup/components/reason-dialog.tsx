import { Form, Input, Modal } from 'antd';

/** The reason for changing a submitted form (asked once per save; audited with the change). */
export function ChangeReasonDialog({ onDone }: { onDone: (reason: string | null) => void }) {
  const [form] = Form.useForm<{ reason: string }>();
  const submit = async () => {
    const { reason } = await form.validateFields();
    onDone(reason.trim());
  };
  return (
    <Modal
      open
      title="填写修改原因"
      okText="保存修改"
      cancelText="取消"
      onOk={() => void submit().catch(() => undefined)}
      onCancel={() => onDone(null)}
      destroyOnHidden
      mask={{ closable: false }}
    >
      <p>该表单已提交，修改数据需要说明原因。</p>
      <Form form={form} layout="vertical">
        <Form.Item
          name="reason"
          label="修改原因"
          rules={[
            { required: true, whitespace: true, message: '请填写修改原因' },
            { max: 500, message: '修改原因不能超过500个字符' },
          ]}
        >
          <Input.TextArea aria-label="修改原因" rows={3} maxLength={500} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
