import { Button, Form, Input, Radio, Select } from 'antd';
import { LazyDatePicker } from '../../../components/lazy-date-picker/lazy-date-picker';
import dayjs, { type Dayjs } from 'dayjs';
import {
  CONTACT_METHOD_LABELS,
  CONTACT_METHODS,
  CONTACT_OUTCOME_LABELS,
  CONTACT_OUTCOMES,
  type ContactMethod,
  type ContactOutcome,
} from '@registry/shared/contracts/followup-codes';
import { applyServerIssues } from '../../../lib/form-errors';
import { toast } from '../../../lib/toast';
import { afterToday } from '../../../lib/today';
import { useAddContact } from '../api/add-contact';

type Values = { contactedAt: Dayjs; method: ContactMethod; outcome?: ContactOutcome; note?: string };

export type ContactFormProps = {
  taskId: string;
  defaultMethod: ContactMethod;
  /** After a saved attempt (the page opens the death dialog for 已死亡). */
  onAdded: (outcome: ContactOutcome, contactedAt: Dayjs) => void;
};

/** 记录联系: time (now by default, never in the future), method (the visit's by default), outcome, note. */
export function ContactForm({ taskId, defaultMethod, onAdded }: ContactFormProps) {
  const [form] = Form.useForm<Values>();
  const add = useAddContact();
  const initial = () => ({ contactedAt: dayjs(), method: defaultMethod, outcome: undefined, note: undefined });

  const submit = async (values: Values) => {
    const outcome = values.outcome as ContactOutcome;
    try {
      await add.mutateAsync({
        taskId,
        contactedAt: values.contactedAt.format(),
        method: values.method,
        outcome,
        note: values.note?.trim() || null,
      });
    } catch (error) {
      applyServerIssues(form, error, ['contactedAt', 'method', 'outcome', 'note']);
      return;
    }
    toast.success('联系记录已保存');
    form.setFieldsValue(initial());
    onAdded(outcome, values.contactedAt);
  };

  return (
    <Form<Values> form={form} layout="vertical" initialValues={initial()} onFinish={(v) => void submit(v)}>
      <div style={{ display: 'flex', gap: 16, flexWrap: 'wrap' }}>
        <Form.Item
          name="contactedAt"
          label="联系时间"
          rules={[
            { required: true, message: '请选择联系时间' },
            {
              validator: (_, value: Dayjs | null) =>
                value && value.isAfter(dayjs().add(1, 'minute'))
                  ? Promise.reject(new Error('联系时间不能晚于当前时间'))
                  : Promise.resolve(),
            },
          ]}
        >
          <LazyDatePicker
            aria-label="联系时间"
            showTime
            format="YYYY-MM-DD HH:mm"
            disabledDate={afterToday}
            allowClear={false}
          />
        </Form.Item>
        <Form.Item name="method" label="联系方式" rules={[{ required: true, message: '请选择联系方式' }]}>
          <Select
            aria-label="联系方式"
            style={{ width: 120 }}
            options={CONTACT_METHODS.map((m) => ({ value: m, label: CONTACT_METHOD_LABELS[m] }))}
          />
        </Form.Item>
      </div>
      <Form.Item name="outcome" label="联系结果" rules={[{ required: true, message: '请选择联系结果' }]}>
        <Radio.Group
          aria-label="联系结果"
          options={CONTACT_OUTCOMES.map((o) => ({ value: o, label: CONTACT_OUTCOME_LABELS[o] }))}
        />
      </Form.Item>
      <Form.Item name="note" label="备注" rules={[{ max: 1000, message: '备注不能超过1000个字符' }]}>
        <Input.TextArea
          aria-label="备注"
          rows={2}
          maxLength={1000}
          placeholder="如：患者诉近期无不适，约下周门诊复查"
        />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={add.isPending}>
        保存联系记录
      </Button>
    </Form>
  );
}
