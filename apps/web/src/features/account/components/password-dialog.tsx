import { Button, Form, Input, Modal } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { LAYOUT, MESSAGES } from '@registry/shared/constants';
import { PASSWORD_MIN_LENGTH, passwordProblem } from '@registry/shared/password-policy';
import { clearToken } from '../../../lib/token';
import { navigateTo } from '../../../lib/navigation-bridge';
import { toast } from '../../../lib/toast';
import { applyServerIssues } from '../../../lib/form-errors';
import { useChangePassword } from '../api/change-password';

type PasswordForm = { password?: string; newPassword: string; confirmPassword: string };

export type PasswordDialogProps = {
  open: boolean;
  /** The user still has the initial password: title 设置密码, no old password asked. */
  initPwd: boolean;
  /** Cannot be dismissed (after sign-in with an initial password): only setting the password or logging out. */
  forced?: boolean;
  /** The account's username: a new password must not contain it. */
  username?: string;
  onClose: () => void;
  onLogout: () => void;
};

/** The set/change password dialog of seed §2 and §5. On success the user is logged out. */
export function PasswordDialog({ open, initPwd, forced = false, username, onClose, onLogout }: PasswordDialogProps) {
  const [form] = Form.useForm<PasswordForm>();
  const queryClient = useQueryClient();
  const mutation = useChangePassword();
  const title = initPwd ? MESSAGES.setPasswordTitle : MESSAGES.changePasswordTitle;

  const submit = async (values: PasswordForm) => {
    await mutation.mutateAsync(
      initPwd ? { newPassword: values.newPassword } : { password: values.password, newPassword: values.newPassword },
    );
    toast.success(initPwd ? MESSAGES.passwordSetSuccess : MESSAGES.passwordChangeSuccess);
    clearToken();
    queryClient.clear();
    onClose();
    navigateTo('/login', { replace: true });
  };

  const footer = [
    forced ? (
      <Button key="logout" onClick={onLogout}>
        退出登录
      </Button>
    ) : (
      <Button key="cancel" onClick={onClose}>
        取消
      </Button>
    ),
    <Button key="submit" type="primary" loading={mutation.isPending} onClick={() => form.submit()}>
      确定
    </Button>,
  ];

  return (
    <Modal
      title={title}
      width={LAYOUT.passwordDialogWidth}
      open={open}
      onCancel={forced ? undefined : onClose}
      closable={!forced}
      mask={{ closable: !forced }}
      keyboard={!forced}
      footer={footer}
      destroyOnHidden
    >
      {forced && <p style={{ color: '#8c8c8c', marginTop: 0 }}>您正在使用初始密码，请先设置新密码。</p>}
      <Form<PasswordForm>
        form={form}
        layout="vertical"
        requiredMark
        onFinish={(values) => {
          submit(values).catch((error: unknown) => applyServerIssues(form, error, ['password', 'newPassword']));
        }}
      >
        {!initPwd && (
          <Form.Item
            name="password"
            label="原密码"
            validateTrigger="onBlur"
            rules={[{ required: true, message: MESSAGES.oldPasswordRequired }]}
          >
            <Input.Password autoComplete="current-password" placeholder="请输入原密码" />
          </Form.Item>
        )}
        <Form.Item
          name="newPassword"
          label="新密码"
          extra={`至少${PASSWORD_MIN_LENGTH}位，可用任意字符（建议用一句好记的话）；不能是常见密码，不能包含用户名`}
          rules={[
            { required: true, message: MESSAGES.newPasswordRequired },
            {
              // The shared rule of packages/shared/src/password-policy.ts, the same the server applies.
              validator: async (_rule, value: unknown) => {
                if (typeof value !== 'string' || value === '') return;
                const problem = passwordProblem(value, username);
                if (problem) throw new Error(problem);
              },
            },
          ]}
        >
          <Input.Password autoComplete="new-password" placeholder="请输入新密码" />
        </Form.Item>
        <Form.Item
          name="confirmPassword"
          label="确认密码"
          dependencies={['newPassword']}
          rules={[
            { required: true, message: MESSAGES.confirmPasswordRequired },
            ({ getFieldValue }) => ({
              validator: async (_rule, value: unknown) => {
                if (!value || getFieldValue('newPassword') === value) return;
                throw new Error(MESSAGES.passwordsDiffer);
              },
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" placeholder="请再次输入新密码" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
