import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { LoginOptions } from '@registry/shared/contracts/auth';
import { server } from '../../../test/server';
import { apiUrl, http, HttpResponse, ok } from '../../../test/api';
import { renderRoute } from '../../../test/router';
import { getToken, setToken } from '../../../lib/token';
import { LoginPage } from './login-page';
import { QR_EXPIRED_TEXT } from './qr-login-panel';
import { QR_CONFIRM_QUESTION } from './qr-confirm-card';

const ALL_OPTIONS: LoginOptions = { captchaEnabled: true, smsEnabled: true, qrEnabled: true };

function serveOptions(options: LoginOptions) {
  server.use(http.get(apiUrl('/auth/login-options'), () => ok(options)));
}

function serveCaptcha() {
  let served = 0;
  server.use(
    http.get(apiUrl('/auth/captcha'), () => {
      served += 1;
      return new HttpResponse('<svg xmlns="http://www.w3.org/2000/svg"/>', {
        headers: { 'Content-Type': 'image/svg+xml', 'x-captcha-key': `cap-${served}` },
      });
    }),
  );
  return () => served;
}

function renderLogin(at = '/login') {
  return renderRoute(<LoginPage />, { path: '/login', at });
}

describe('LoginPage', () => {
  it('should offer the three ways to sign in when all are enabled', async () => {
    serveOptions(ALL_OPTIONS);
    serveCaptcha();
    renderLogin();
    expect(await screen.findByRole('tab', { name: '账号密码登录' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: '短信登录' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: '扫码登录' })).toBeInTheDocument();
    expect(screen.getByLabelText('用户名')).toBeInTheDocument();
    expect(screen.getByLabelText('验证码')).toBeInTheDocument();
    expect(await screen.findByAltText('验证码图片')).toBeInTheDocument();
  });

  it('should ask for no captcha and offer only the password tab when the others are disabled', async () => {
    serveOptions({ captchaEnabled: false, smsEnabled: false, qrEnabled: false });
    renderLogin();
    expect(await screen.findByRole('tab', { name: '账号密码登录' })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: '短信登录' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('验证码')).not.toBeInTheDocument();
  });

  it('should show the captcha when the server asks for it after failures, even with the captcha off', async () => {
    serveOptions({ captchaEnabled: false, smsEnabled: false, qrEnabled: false });
    serveCaptcha();
    server.use(
      http.post(apiUrl('/auth/login'), () =>
        HttpResponse.json({ status: 400, message: '请输入验证码', data: null, requestId: 'r' }, { status: 400 }),
      ),
    );
    const user = userEvent.setup({ delay: null });
    renderLogin();
    fireEvent.change(await screen.findByLabelText('用户名'), { target: { value: 'owner' } });
    fireEvent.change(screen.getByLabelText('密码'), { target: { value: 'Demo@2026' } });
    expect(screen.queryByLabelText('验证码')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /登\s*录/ }));
    expect(await screen.findByLabelText('验证码')).toBeInTheDocument();
    expect(await screen.findByAltText('验证码图片')).toBeInTheDocument();
  });

  it('should store the token and open the project list when the password sign-in succeeds', async () => {
    serveOptions(ALL_OPTIONS);
    serveCaptcha();
    let body: unknown;
    server.use(
      http.post(apiUrl('/auth/login'), async ({ request }) => {
        body = await request.json();
        return ok({ token: 'tok-1', expiresAt: '2026-11-22T12:00:00Z', initPwd: false });
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderLogin();
    fireEvent.change(await screen.findByLabelText('用户名'), { target: { value: 'owner' } });
    fireEvent.change(screen.getByLabelText('密码'), { target: { value: 'Demo@2026' } });
    await screen.findByAltText('验证码图片');
    fireEvent.change(screen.getByLabelText('验证码'), { target: { value: 'ab12' } });
    await user.click(screen.getByRole('button', { name: /登\s*录/ }));
    expect(await screen.findByTestId('location')).toHaveTextContent('/person/project');
    expect(body).toEqual({
      loginType: 'password',
      username: 'owner',
      password: 'Demo@2026',
      captchaKey: 'cap-1',
      captchaCode: 'ab12',
    });
    expect(getToken()).toBe('tok-1');
  });

  it('should show the server message and fetch a new captcha when the sign-in is refused', async () => {
    serveOptions(ALL_OPTIONS);
    const captchas = serveCaptcha();
    server.use(
      http.post(apiUrl('/auth/login'), () =>
        HttpResponse.json({ status: 400, message: '验证码错误', data: null, requestId: 'r' }, { status: 400 }),
      ),
    );
    const user = userEvent.setup({ delay: null });
    renderLogin();
    fireEvent.change(await screen.findByLabelText('用户名'), { target: { value: 'owner' } });
    fireEvent.change(screen.getByLabelText('密码'), { target: { value: 'x' } });
    await screen.findByAltText('验证码图片');
    fireEvent.change(screen.getByLabelText('验证码'), { target: { value: 'zzzz' } });
    await user.click(screen.getByRole('button', { name: /登\s*录/ }));
    expect(await screen.findByText('验证码错误')).toBeInTheDocument();
    await waitFor(() => expect(captchas()).toBe(2));
    expect(getToken()).toBeNull();
  });

  it('should send the SMS code and count down 60 seconds when the phone is valid', async () => {
    serveOptions(ALL_OPTIONS);
    serveCaptcha();
    let phone: string | null = null;
    server.use(
      http.get(apiUrl('/auth/sms'), ({ request }) => {
        phone = new URL(request.url).searchParams.get('phone');
        return ok(null);
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderLogin();
    await user.click(await screen.findByRole('tab', { name: '短信登录' }));
    fireEvent.change(screen.getByLabelText('手机号'), { target: { value: '123' } });
    await user.click(screen.getByRole('button', { name: '获取验证码' }));
    expect(await screen.findByText('手机号应为11位中国大陆手机号')).toBeInTheDocument();
    expect(phone).toBeNull();
    fireEvent.change(screen.getByLabelText('手机号'), { target: { value: '13800138000' } });
    await user.click(screen.getByRole('button', { name: '获取验证码' }));
    expect(await screen.findByRole('button', { name: '60秒后重新获取' })).toBeDisabled();
    expect(phone).toBe('13800138000');
  });

  it('should say the QR code expired and fetch a new one when clicked', async () => {
    serveOptions(ALL_OPTIONS);
    serveCaptcha();
    let codes = 0;
    server.use(
      http.get(apiUrl('/auth/qr-code'), () => {
        codes += 1;
        return new HttpResponse('png', { headers: { 'Content-Type': 'image/png', 'x-qr-key': `qr-${codes}` } });
      }),
      http.get(apiUrl('/auth/qr-code/status'), ({ request }) =>
        ok({ state: new URL(request.url).searchParams.get('key') === 'qr-1' ? 'expired' : 'pending' }),
      ),
    );
    const user = userEvent.setup({ delay: null });
    renderLogin();
    await user.click(await screen.findByRole('tab', { name: '扫码登录' }));
    await user.click(await screen.findByRole('button', { name: new RegExp(QR_EXPIRED_TEXT) }));
    await waitFor(() => expect(codes).toBe(2));
    await waitFor(() => expect(screen.queryByText(QR_EXPIRED_TEXT)).not.toBeInTheDocument());
  });

  it('should sign in with the token when the QR code is confirmed', async () => {
    serveOptions(ALL_OPTIONS);
    serveCaptcha();
    server.use(
      http.get(
        apiUrl('/auth/qr-code'),
        () => new HttpResponse('png', { headers: { 'Content-Type': 'image/png', 'x-qr-key': 'qr-9' } }),
      ),
      http.get(apiUrl('/auth/qr-code/status'), () =>
        ok({ state: 'confirmed', token: 'qr-token', expiresAt: '2026-11-22T12:00:00Z', initPwd: false }),
      ),
    );
    const user = userEvent.setup({ delay: null });
    renderLogin();
    await user.click(await screen.findByRole('tab', { name: '扫码登录' }));
    expect(await screen.findByTestId('location')).toHaveTextContent('/person/project');
    expect(getToken()).toBe('qr-token');
  });

  it('should mark the code scanned and confirm it when a signed-in user opens the QR link', async () => {
    setToken('phone-token');
    serveOptions(ALL_OPTIONS);
    const calls: string[] = [];
    server.use(
      http.post(apiUrl('/auth/qr-code/scan'), async ({ request }) => {
        calls.push(`scan:${((await request.json()) as { key: string }).key}`);
        return ok(null);
      }),
      http.post(apiUrl('/auth/qr-code/confirm'), async ({ request }) => {
        calls.push(`confirm:${((await request.json()) as { key: string }).key}`);
        return ok(null);
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderLogin('/login?qr=k-42');
    expect(await screen.findByText(QR_CONFIRM_QUESTION)).toBeInTheDocument();
    await waitFor(() => expect(calls).toEqual(['scan:k-42']));
    await user.click(screen.getByRole('button', { name: '确认登录' }));
    expect(await screen.findByText('已确认登录')).toBeInTheDocument();
    expect(calls).toEqual(['scan:k-42', 'confirm:k-42']);
  });
});
