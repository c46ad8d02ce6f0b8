import { Checkbox, Form, Input, Modal } from 'antd';
import { applyServerIssues } from '../../../lib/form-errors';
import { withSuccessToast } from '../../../lib/toast';
import { markLost } from '../api/mark-lost';

type Values = { reason: string; wholePatient: boolean };

/** 标记失访: a reason, and whether the patient as a whole is lost (all their open tasks close as lost). */
export function LostDialog({ taskId, onClose, onDone }: { taskId: string; onClose: () => void; onDone: () => void }) {
  const [form] = Form.useForm<Values>();
  const submit = async () => {
    const values = await form.validateFields();
    const action = markLost({ taskId, reason: values.reason.trim(), wholePatient: values.wholePatient });
    action.catch((error: unknown) => applyServerIssues(form, error, ['reason']));
    if (await withSuccessToast(action)) onDone();
  };
  return (
    <Modal
      open
      title="标记失访"
      okText="确定"
      cancelText="取消"
      okButtonProps={{ danger: true }}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={onClose}
      destroyOnHidden
      mask={{ closable: false }}
    >
      <Form form={form} layout="vertical" initialValues={{ wholePatient: false }}>
        <Form.Item
          name="reason"
          label="失访原因"
          rules={[
            { required: true, whitespace: true, message: '请输入失访原因' },
            { max: 500, message: '失访原因不能超过500个字符' },
          ]}
        >
          <Input.TextArea
            aria-label="失访原因"
            rows={3}
            maxLength={500}
            placeholder="如：多次电话无人接听，号码已停机"
          />
        </Form.Item>
        <Form.Item name="wholePatient" valuePropName="checked">
          <Checkbox>患者整体失访（关闭该患者所有未完成的随访任务）</Checkbox>
        </Form.Item>
      </Form>
    </Modal>
  );
}
