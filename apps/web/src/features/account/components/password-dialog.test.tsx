import { beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@registry/shared/constants';
import { server } from '../../../test/server';
import { apiUrl, http, HttpResponse, ok } from '../../../test/api';
import { renderWithProviders } from '../../../test/render';
import { registerNavigator } from '../../../lib/navigation-bridge';
import { getToken, setToken } from '../../../lib/token';
import { PasswordDialog } from './password-dialog';

let navigate: Mock<(to: string, options?: { replace?: boolean }) => void>;

beforeEach(() => {
  navigate = vi.fn();
  registerNavigator(navigate);
  setToken('tok');
});

function renderDialog(initPwd: boolean) {
  const onClose = vi.fn();
  const onLogout = vi.fn();
  renderWithProviders(
    <PasswordDialog
      open
      initPwd={initPwd}
      forced={initPwd}
      username="zhangwei"
      onClose={onClose}
      onLogout={onLogout}
    />,
  );
  return { onClose, onLogout };
}

describe('PasswordDialog', () => {
  it('should be titled 修改密码 and ask for the old password when the user has no initial password', async () => {
    renderDialog(false);
    expect(await screen.findByRole('dialog', { name: '修改密码' })).toBeInTheDocument();
    expect(screen.getByLabelText('原密码')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /close|关闭/i })).toBeInTheDocument();
  });

  it('should be titled 设置密码 without the old password when the user has an initial password', async () => {
    renderDialog(true);
    expect(await screen.findByRole('dialog', { name: '设置密码' })).toBeInTheDocument();
    expect(screen.queryByLabelText('原密码')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: '退出登录' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /close|关闭/i })).not.toBeInTheDocument();
  });

  it('should show the three required messages when submitted empty', async () => {
    const user = userEvent.setup({ delay: null });
    renderDialog(false);
    await screen.findByRole('dialog');
    await user.click(screen.getByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByText(MESSAGES.oldPasswordRequired)).toBeInTheDocument();
    expect(await screen.findByText(MESSAGES.newPasswordRequired)).toBeInTheDocument();
    expect(await screen.findByText(MESSAGES.confirmPasswordRequired)).toBeInTheDocument();
  });

  it('should check the old password when the field loses focus', async () => {
    const user = userEvent.setup({ delay: null });
    renderDialog(false);
    await user.click(await screen.findByLabelText('原密码'));
    expect(screen.queryByText(MESSAGES.oldPasswordRequired)).not.toBeInTheDocument();
    await user.tab();
    expect(await screen.findByText(MESSAGES.oldPasswordRequired)).toBeInTheDocument();
  });

  it('should say 两次密码不一致 when the confirmation differs from the new password', async () => {
    const user = userEvent.setup({ delay: null });
    renderDialog(true);
    await user.type(await screen.findByLabelText('新密码'), 'Newpass-2027!');
    await user.type(screen.getByLabelText('确认密码'), 'Newpass-2028!');
    await user.tab();
    expect(await screen.findByText(MESSAGES.passwordsDiffer)).toBeInTheDocument();
  });

  it('should refuse at the field, without calling the server, a short, common or username-bearing password', async () => {
    let calls = 0;
    server.use(
      http.post(apiUrl('/sys-user/change-pwd'), () => {
        calls += 1;
        return ok(null);
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderDialog(true);
    const field = await screen.findByLabelText('新密码');
    const tryPassword = async (value: string, message: string) => {
      await user.clear(field);
      await user.type(field, value);
      await user.tab();
      expect(await screen.findByText(message)).toBeInTheDocument();
    };
    // 11 characters with letters and digits: accepted by the old rule, too short now.
    await tryPassword('Newpass2027', '新密码至少12位');
    await tryPassword('password1234', '新密码过于常见，容易被猜到，请换一个');
    await tryPassword('zhangwei-2027-pw', '新密码不能包含用户名');
    await user.type(screen.getByLabelText('确认密码'), 'zhangwei-2027-pw');
    await user.click(screen.getByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByText('新密码不能包含用户名')).toBeInTheDocument();
    expect(calls).toBe(0);
  });

  it('should toast 密码修改成功，请重新登录 then log out when the change succeeds', async () => {
    let body: unknown;
    server.use(
      http.post(apiUrl('/sys-user/change-pwd'), async ({ request }) => {
        body = await request.json();
        return ok(null);
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderDialog(false);
    await user.type(await screen.findByLabelText('原密码'), 'Oldpass123');
    await user.type(screen.getByLabelText('新密码'), 'Newpass-2027!');
    await user.type(screen.getByLabelText('确认密码'), 'Newpass-2027!');
    await user.click(screen.getByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByText(MESSAGES.passwordChangeSuccess)).toBeInTheDocument();
    expect(body).toEqual({ password: 'Oldpass123', newPassword: 'Newpass-2027!' });
    expect(getToken()).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/login', { replace: true });
  });

  it('should toast 密码设置成功，请重新登录 and send no old password when setting the initial password', async () => {
    let body: unknown;
    server.use(
      http.post(apiUrl('/sys-user/change-pwd'), async ({ request }) => {
        body = await request.json();
        return ok(null);
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderDialog(true);
    await user.type(await screen.findByLabelText('新密码'), 'Newpass-2027!');
    await user.type(screen.getByLabelText('确认密码'), 'Newpass-2027!');
    await user.click(screen.getByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByText(MESSAGES.passwordSetSuccess)).toBeInTheDocument();
    expect(body).toEqual({ newPassword: 'Newpass-2027!' });
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/login', { replace: true }));
    expect(getToken()).toBeNull();
  });

  it('should keep the user signed in when the server refuses the change', async () => {
    server.use(
      http.post(apiUrl('/sys-user/change-pwd'), () =>
        HttpResponse.json({ status: 400, message: '原密码不正确', data: null, requestId: 'r' }, { status: 400 }),
      ),
    );
    const user = userEvent.setup({ delay: null });
    renderDialog(false);
    await user.type(await screen.findByLabelText('原密码'), 'Wrong1234');
    await user.type(screen.getByLabelText('新密码'), 'Newpass-2027!');
    await user.type(screen.getByLabelText('确认密码'), 'Newpass-2027!');
    await user.click(screen.getByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByText('原密码不正确')).toBeInTheDocument();
    expect(getToken()).toBe('tok');
    expect(navigate).not.toHaveBeenCalled();
  });
});
