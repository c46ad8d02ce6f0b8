import { create } from 'zustand';

/**
 * Set when the server answered PASSWORD_SETUP_REQUIRED (428): the session's user still has the initial password.
 * The header's user menu then shows the forced 设置密码 dialog (even when the cached user info predates the reset);
 * the session is kept. Cleared with the token.
 */
export const usePasswordSetup = create<{ required: boolean }>()(() => ({ required: false }));

export function requirePasswordSetup(): void {
  if (!usePasswordSetup.getState().required) usePasswordSetup.setState({ required: true });
}

export function resetPasswordSetup(): void {
  if (usePasswordSetup.getState().required) usePasswordSetup.setState({ required: false });
}
