import type { ThemeConfig } from 'antd';
import { LAYOUT } from '@registry/shared/constants';

/** A calm clinical blue, compact header. */
export const THEME: ThemeConfig = {
  token: {
    colorPrimary: '#1f6fb2',
    colorInfo: '#1f6fb2',
    borderRadius: 6,
    fontFamily:
      "-apple-system, BlinkMacSystemFont, 'Segoe UI', 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', sans-serif",
  },
  components: {
    Layout: {
      headerHeight: LAYOUT.headerHeight,
      headerPadding: '0 16px',
      headerBg: '#ffffff',
      siderBg: '#ffffff',
      bodyBg: '#f3f6fa',
    },
    Menu: { itemBorderRadius: 6 },
  },
};
