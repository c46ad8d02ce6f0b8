import type { ThemeConfig } from 'antd';
import { LAYOUT } from '@registry/shared/constants';

/**
 * The class antd scopes the theme's CSS variables to (by default a per-render id): the app root carries it, so the
 * root's own text style (`.app-root` in global.css) can read the variables too.
 */
export const THEME_CSS_VAR_KEY = 'registry-theme';

/**
 * A calm clinical blue, compact header. `zeroRuntime`: antd's component styles come from the prebuilt
 * `antd/dist/antd.css` (imported once in main.tsx) instead of being generated in the browser on first use of each
 * component — that generation was most of a page's first render (quality.md P8). The tokens below still reach the
 * components as CSS variables, which antd registers at runtime in either mode.
 */
export const THEME: ThemeConfig = {
  zeroRuntime: true,
  cssVar: { key: THEME_CSS_VAR_KEY },
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
