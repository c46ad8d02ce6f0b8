import { Form, Input, Modal } from 'antd';
import { applyServerIssues } from '../../../lib/form-errors';
import { withSuccessToast } from '../../../lib/toast';
import { reopenTask } from '../api/reopen-task';

/** 重新打开: a done or lost task back to open, with a reason (audited). */
export function ReopenDialog({ taskId, onClose, onDone }: { taskId: string; onClose: () => void; onDone: () => void }) {
  const [form] = Form.useForm<{ reason: string }>();
  const submit = async () => {
    const { reason } = await form.validateFields();
    const action = reopenTask({ taskId, reason: reason.trim() });
    action.catch((error: unknown) => applyServerIssues(form, error, ['reason']));
    if (await withSuccessToast(action)) onDone();
  };
  return (
    <Modal
      open
      title="重新打开随访任务"
      okText="确定"
      cancelText="取消"
      onOk={() => void submit().catch(() => undefined)}
      onCancel={onClose}
      destroyOnHidden
      mask={{ closable: false }}
    >
      <Form form={form} layout="vertical">
        <Form.Item
          name="reason"
          label="原因"
          rules={[
            { required: true, whitespace: true, message: '请输入原因' },
            { max: 500, message: '原因不能超过500个字符' },
          ]}
        >
          <Input.TextArea aria-label="重新打开原因" rows={3} maxLength={500} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
