import { useEffect, type ReactNode } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { THEME } from '../config/theme';
import { registerToast, TOAST_CONFIG } from '../lib/toast';

dayjs.locale('zh-cn');

/** Hands antd's context-aware message instance to the request layer. */
function ToastBridge() {
  const { message } = AntApp.useApp();
  useEffect(() => {
    registerToast(message);
    return () => registerToast(null);
  }, [message]);
  return null;
}

export function Providers({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <ConfigProvider locale={zhCN} theme={THEME}>
      <AntApp message={TOAST_CONFIG}>
        <ToastBridge />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
