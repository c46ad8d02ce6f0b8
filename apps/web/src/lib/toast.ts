import { message } from 'antd';
import { MESSAGES, TOAST } from '@registry/shared/constants';

/** Toast defaults of seed §9: 3000 ms, offset 16. Static fallback until the app root registers its instance. */
export const TOAST_CONFIG = { duration: TOAST.durationMs / 1000, top: TOAST.offset } as const;
message.config(TOAST_CONFIG);

type MessageInstance = ReturnType<typeof message.useMessage>[0];

let instance: MessageInstance | null = null;

/** Called by the app root with `useFeedback().message`, so toasts render inside the ConfigProvider (theme, locale). */
export function registerToast(next: MessageInstance | null): void {
  instance = next;
}

function api(): Pick<MessageInstance, 'success' | 'error' | 'warning' | 'info' | 'destroy'> {
  return instance ?? message;
}

export const toast = {
  success: (content: string) => void api().success(content),
  error: (content: string) => void api().error(content),
  warning: (content: string) => void api().warning(content),
  info: (content: string) => void api().info(content),
  destroy: () => api().destroy(),
};

/**
 * Runs a change and says '操作成功' when it succeeds. A failure is not toasted again: the request layer already
 * showed the server's message. Resolves true on success.
 */
export async function withSuccessToast(action: Promise<unknown>): Promise<boolean> {
  try {
    await action;
    toast.success(MESSAGES.operationSucceeded);
    return true;
  } catch {
    return false;
  }
}
