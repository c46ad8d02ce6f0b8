import { useEffect, type ReactNode } from 'react';
import { ConfigProvider, message, theme } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { THEME } from '../config/theme';
import { registerToast, TOAST_CONFIG } from '../lib/toast';

dayjs.locale('zh-cn');

/**
 * Hands a context-aware message instance (theme, locale) to the request layer. antd's `App` would do it too, but it
 * also brings its modal and notification hosts (and their dialogs) onto every page: a page that needs a confirm
 * dialog mounts its own (`Modal.useModal`, or `App` around the CRF designer).
 */
function ToastHost() {
  const [api, holder] = message.useMessage(TOAST_CONFIG);
  useEffect(() => {
    registerToast(api);
    return () => registerToast(null);
  }, [api]);
  return holder;
}

/** The base text style antd's `App` gives its wrapper (colour, size, line height and font of the theme). */
function AppBase({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <div
      className="registry-app"
      style={{
        color: token.colorText,
        fontSize: token.fontSize,
        lineHeight: token.lineHeight,
        fontFamily: token.fontFamily,
      }}
    >
      {children}
    </div>
  );
}

export function Providers({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <ConfigProvider locale={zhCN} theme={THEME}>
      <AppBase>
        <ToastHost />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </AppBase>
    </ConfigProvider>
  );
}
