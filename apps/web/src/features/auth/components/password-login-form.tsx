import { useState } from 'react';
import { Button, Form, Input, Spin } from 'antd';
import { LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import type { LoginResponse } from '@registry/shared/contracts/auth';
import { useCaptcha } from '../api/get-captcha';
import { useLogin } from '../api/login';
import { ApiError } from '../../../lib/request';

/** The server asks for a captcha after repeated failures even when it is off in the sign-in options. */
const CAPTCHA_ASKED = new Set(['请输入验证码', '验证码错误或已过期']);

type PasswordLoginValues = { username: string; password: string; captchaCode?: string };

export type PasswordLoginFormProps = { captchaEnabled: boolean; onSignedIn: (result: LoginResponse) => void };

export function PasswordLoginForm({ captchaEnabled: enabledByOptions, onSignedIn }: PasswordLoginFormProps) {
  const [form] = Form.useForm<PasswordLoginValues>();
  const [asked, setAsked] = useState(false);
  const captchaEnabled = enabledByOptions || asked;
  const captcha = useCaptcha(captchaEnabled);
  const login = useLogin();

  const refreshCaptcha = () => {
    form.setFieldValue('captchaCode', '');
    void captcha.refetch();
  };

  const submit = async (values: PasswordLoginValues) => {
    try {
      const result = await login.mutateAsync({
        loginType: 'password',
        username: values.username,
        password: values.password,
        ...(captchaEnabled ? { captchaKey: captcha.data?.key, captchaCode: values.captchaCode } : {}),
      });
      onSignedIn(result);
    } catch (error) {
      // The request layer has shown the server's message; a captcha is single use.
      if (captchaEnabled) refreshCaptcha();
      else if (error instanceof ApiError && CAPTCHA_ASKED.has(error.message)) setAsked(true);
    }
  };

  return (
    <Form<PasswordLoginValues>
      form={form}
      layout="vertical"
      size="large"
      requiredMark={false}
      onFinish={(values) => void submit(values)}
    >
      <Form.Item name="username" label="用户名" rules={[{ required: true, message: '请输入用户名' }]}>
        <Input prefix={<UserOutlined />} placeholder="请输入用户名" autoComplete="username" />
      </Form.Item>
      <Form.Item name="password" label="密码" rules={[{ required: true, message: '请输入密码' }]}>
        <Input.Password prefix={<LockOutlined />} placeholder="请输入密码" autoComplete="current-password" />
      </Form.Item>
      {captchaEnabled && (
        <Form.Item label="验证码" required>
          <div style={{ display: 'flex', gap: 8 }}>
            <Form.Item name="captchaCode" noStyle rules={[{ required: true, message: '请输入验证码' }]}>
              <Input
                prefix={<SafetyOutlined />}
                placeholder="请输入验证码"
                aria-label="验证码"
                autoComplete="off"
                style={{ flex: 1 }}
              />
            </Form.Item>
            <button
              type="button"
              className="captcha-image"
              title="看不清？点击刷新"
              aria-label="刷新验证码"
              onClick={refreshCaptcha}
            >
              {captcha.data ? <img src={captcha.data.imageUrl} alt="验证码图片" /> : <Spin size="small" />}
            </button>
          </div>
        </Form.Item>
      )}
      <Form.Item style={{ marginBottom: 0 }}>
        <Button type="primary" htmlType="submit" block loading={login.isPending}>
          登录
        </Button>
      </Form.Item>
    </Form>
  );
}
