import { lazy, Suspense, useCallback, useState } from 'react';
import { Card, Spin, Tabs, Typography } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { QR_LOGIN_QUERY } from '@registry/shared/constants';
import type { LoginOptions, LoginResponse } from '@registry/shared/contracts/auth';
import { useAppStore } from '../../../lib/stores/app-store';
import { getToken, setToken } from '../../../lib/token';
import { useLoginOptions } from '../api/get-login-options';
import { PasswordLoginForm } from './password-login-form';
import { QrLoginPanel } from './qr-login-panel';
import { SmsLoginForm } from './sms-login-form';
import './login-page.css';

function LoadingCard() {
  return (
    <Card className="login-card">
      <div style={{ textAlign: 'center', padding: 48 }}>
        <Spin />
      </div>
    </Card>
  );
}

// Only a phone that opened a QR sign-in link shows it: loaded then, not on every sign-in page.
const QrConfirmCard = lazy(() => import('./qr-confirm-card').then((m) => ({ default: m.QrConfirmCard })));

export const HOME_AFTER_LOGIN = '/person/project';

/** When the options cannot be loaded, offer the password sign-in with its captcha. */
const FALLBACK_OPTIONS: LoginOptions = { captchaEnabled: true, smsEnabled: false, qrEnabled: false };

export function LoginPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [searchParams] = useSearchParams();
  const qrKey = searchParams.get(QR_LOGIN_QUERY);
  const options = useLoginOptions();
  const [tab, setTab] = useState('password');
  const [signedIn, setSignedIn] = useState(() => Boolean(getToken()));

  const onSignedIn = useCallback(
    (result: LoginResponse) => {
      setToken(result.token);
      // Nothing cached or stored for a previous user survives a sign-in.
      queryClient.clear();
      useAppStore.getState().setOrganisation('', '');
      setSignedIn(true);
      if (!qrKey) navigate(HOME_AFTER_LOGIN, { replace: true });
    },
    [navigate, queryClient, qrKey],
  );

  const content = () => {
    if (qrKey && signedIn) {
      return (
        <Suspense fallback={<LoadingCard />}>
          <QrConfirmCard qrKey={qrKey} onDone={() => navigate(HOME_AFTER_LOGIN, { replace: true })} />
        </Suspense>
      );
    }
    if (options.isPending) return <LoadingCard />;
    const loginOptions = options.data ?? FALLBACK_OPTIONS;
    const items = [
      {
        key: 'password',
        label: '账号密码登录',
        children: <PasswordLoginForm captchaEnabled={loginOptions.captchaEnabled} onSignedIn={onSignedIn} />,
      },
      ...(loginOptions.smsEnabled
        ? [{ key: 'sms', label: '短信登录', children: <SmsLoginForm onSignedIn={onSignedIn} /> }]
        : []),
      ...(loginOptions.qrEnabled
        ? [{ key: 'qr', label: '扫码登录', children: tab === 'qr' ? <QrLoginPanel onSignedIn={onSignedIn} /> : null }]
        : []),
    ];
    return (
      <Card className="login-card">
        <Typography.Title level={4} style={{ marginTop: 0 }}>
          {qrKey ? '请先登录，再确认电脑端登录' : '欢迎登录'}
        </Typography.Title>
        <Tabs activeKey={tab} onChange={setTab} items={items} />
      </Card>
    );
  };

  return (
    <div className="login-page">
      <section className="login-brand" aria-label="平台介绍">
        <div className="login-brand-inner">
          <div className="login-logo" aria-hidden="true">
            ✚
          </div>
          <h1>临床科研患者登记平台</h1>
          <p>以项目为单位管理患者登记、病例报告表、随访计划与多中心研究数据。</p>
          <ul>
            <li>患者登记与病例报告表</li>
            <li>随访计划与提醒</li>
            <li>数据检索、导出与统计分析</li>
            <li>AI 病历识别与溯源</li>
          </ul>
        </div>
      </section>
      <main className="login-main">{content()}</main>
    </div>
  );
}
