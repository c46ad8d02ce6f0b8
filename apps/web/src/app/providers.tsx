import { useEffect, type ReactNode } from 'react';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { FeedbackProvider } from '../components/feedback/feedback-provider';
import { useFeedback } from '../components/feedback/feedback-context';
import { THEME, THEME_CSS_VAR_KEY } from '../config/theme';
import { registerToast } from '../lib/toast';

dayjs.locale('zh-cn');

/** Hands the root's context-aware message instance to the request layer. */
function ToastBridge() {
  const { message } = useFeedback();
  useEffect(() => {
    registerToast(message);
    return () => registerToast(null);
  }, [message]);
  return null;
}

export function Providers({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <ConfigProvider locale={zhCN} theme={THEME}>
      <FeedbackProvider>
        <ToastBridge />
        {/* The theme's CSS variables are scoped to this class; .app-root sets the text style from them. */}
        <div className={`${THEME_CSS_VAR_KEY} app-root`}>
          <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
        </div>
      </FeedbackProvider>
    </ConfigProvider>
  );
}
