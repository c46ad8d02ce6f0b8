import { Button, Form, Input } from 'antd';
import { MobileOutlined, SafetyOutlined } from '@ant-design/icons';
import type { LoginResponse } from '@registry/shared/contracts/auth';
import { MOBILE_PHONE, SMS_CODE } from '@registry/shared/rules';
import { toast } from '../../../lib/toast';
import { applyServerIssues } from '../../../lib/form-errors';
import { useLogin } from '../api/login';
import { useSendSms } from '../api/send-sms';
import { useCountdown } from '../hooks/use-countdown';

type SmsLoginValues = { phone: string; smsCode: string };

export const SMS_RESEND_SECONDS = 60;

export function SmsLoginForm({ onSignedIn }: { onSignedIn: (result: LoginResponse) => void }) {
  const [form] = Form.useForm<SmsLoginValues>();
  const sendSms = useSendSms();
  const login = useLogin();
  const countdown = useCountdown();

  const send = async () => {
    const { phone } = await form.validateFields(['phone']);
    await sendSms.mutateAsync(phone);
    countdown.start(SMS_RESEND_SECONDS);
    toast.success('验证码已发送');
  };

  const submit = async (values: SmsLoginValues) => {
    const result = await login.mutateAsync({ loginType: 'sms', phone: values.phone, smsCode: values.smsCode });
    onSignedIn(result);
  };

  return (
    <Form<SmsLoginValues>
      form={form}
      layout="vertical"
      size="large"
      requiredMark={false}
      onFinish={(values) =>
        void submit(values).catch((error: unknown) => applyServerIssues(form, error, ['phone', 'smsCode']))
      }
    >
      <Form.Item name="phone" label="手机号" rules={[{ required: true, message: '请输入手机号' }, MOBILE_PHONE]}>
        <Input prefix={<MobileOutlined />} placeholder="请输入手机号" maxLength={11} autoComplete="tel" />
      </Form.Item>
      <Form.Item label="短信验证码" required>
        <div style={{ display: 'flex', gap: 8 }}>
          <Form.Item name="smsCode" noStyle rules={[{ required: true, message: '请输入短信验证码' }, SMS_CODE]}>
            <Input
              prefix={<SafetyOutlined />}
              placeholder="6位验证码"
              aria-label="短信验证码"
              maxLength={6}
              autoComplete="one-time-code"
              style={{ flex: 1 }}
            />
          </Form.Item>
          <Button
            disabled={countdown.left > 0}
            loading={sendSms.isPending}
            onClick={() => void send().catch((error: unknown) => applyServerIssues(form, error, ['phone']))}
            style={{ width: 132 }}
          >
            {countdown.left > 0 ? `${countdown.left}秒后重新获取` : '获取验证码'}
          </Button>
        </div>
      </Form.Item>
      <Form.Item style={{ marginBottom: 0 }}>
        <Button type="primary" htmlType="submit" block loading={login.isPending}>
          登录
        </Button>
      </Form.Item>
    </Form>
  );
}
