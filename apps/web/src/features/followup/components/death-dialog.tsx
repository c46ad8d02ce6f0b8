import { DatePicker, Form, Input, Modal, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { applyServerIssues } from '../../../lib/form-errors';
import { withSuccessToast } from '../../../lib/toast';
import { afterToday } from '../../../lib/today';
import { recordDeath } from '../api/record-death';

type Values = { deathDate: Dayjs; cause: string };

export type DeathDialogProps = {
  patientId: string;
  patientLabel: string;
  birthDate: string | null;
  /** A first guess (the day of the contact that reported it). */
  defaultDate?: Dayjs;
  onClose: () => void;
  onRecorded: () => void;
};

/** 登记死亡: death date (not in the future, not before birth) and cause; the patient's open tasks are cancelled. */
export function DeathDialog({
  patientId,
  patientLabel,
  birthDate,
  defaultDate,
  onClose,
  onRecorded,
}: DeathDialogProps) {
  const [form] = Form.useForm<Values>();
  const submit = async () => {
    const values = await form.validateFields();
    const action = recordDeath({
      patientId,
      deathDate: values.deathDate.format('YYYY-MM-DD'),
      cause: values.cause.trim(),
    });
    action.catch((error: unknown) => applyServerIssues(form, error, ['deathDate', 'cause']));
    if (await withSuccessToast(action)) onRecorded();
  };
  return (
    <Modal
      open
      title="登记死亡"
      okText="确定"
      cancelText="取消"
      okButtonProps={{ danger: true }}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={onClose}
      destroyOnHidden
      mask={{ closable: false }}
    >
      <Typography.Paragraph type="secondary">
        患者 {patientLabel} 将被标记为“已死亡”，其所有未完成的随访任务将被取消。
      </Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={{ deathDate: defaultDate }}>
        <Form.Item name="deathDate" label="死亡日期" rules={[{ required: true, message: '请输入死亡日期' }]}>
          <DatePicker
            aria-label="死亡日期"
            disabledDate={(d) => afterToday(d) || (birthDate !== null && d.isBefore(dayjs(birthDate), 'day'))}
          />
        </Form.Item>
        <Form.Item
          name="cause"
          label="死亡原因"
          rules={[
            { required: true, whitespace: true, message: '请输入死亡原因' },
            { max: 500, message: '死亡原因不能超过500个字符' },
          ]}
        >
          <Input.TextArea aria-label="死亡原因" rows={3} maxLength={500} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
