import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { server } from './server';
import { registerToast } from '../lib/toast';
import { registerNavigator } from '../lib/navigation-bridge';
import { useAppStore } from '../lib/stores/app-store';
import { useMenuStore } from '../lib/stores/menu-store';
import { useProjectStore } from '../lib/stores/project-store';
import { usePasswordSetup } from '../lib/stores/password-setup-store';
import { resetSignedOut } from '../lib/token';
import { installAntdVisibilityRules, keepOnlyVisibilityStyles } from './jsdom-styles';

// antd pages are heavy in jsdom and the machine is shared: give findBy*/waitFor room.
configure({ asyncUtilTimeout: 5000 });

// antd's style sheets reduced to the rules jsdom's getComputedStyle is asked about (see jsdom-styles.ts);
// JSDOM_FULL_STYLES=1 keeps them whole (to compare, or to debug a style question).
if (process.env.JSDOM_FULL_STYLES !== '1') keepOnlyVisibilityStyles();
// antd's component CSS comes from antd.css in the app (zero-runtime mode): its show/hide rules, in jsdom too.
installAntdVisibilityRules();

// jsdom lacks these browser APIs that antd uses.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: vi.fn(),
    removeListener: vi.fn(),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    dispatchEvent: vi.fn(),
  }),
});
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
if (!URL.createObjectURL) URL.createObjectURL = () => 'blob:test';
if (!URL.revokeObjectURL) URL.revokeObjectURL = () => undefined;

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  // The app loads its dialogs on first use (components/feedback); here up front, so that a test's first dialog does
  // not wait for antd's modal modules to be transformed.
  await import('../components/feedback/modal-host');
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
  // Module-level stores outlive a test: back to their initial state, then empty the storages they wrote to.
  useAppStore.setState(useAppStore.getInitialState(), true);
  useMenuStore.setState(useMenuStore.getInitialState(), true);
  useProjectStore.setState(useProjectStore.getInitialState(), true);
  usePasswordSetup.setState(usePasswordSetup.getInitialState(), true);
  resetSignedOut();
  localStorage.clear();
  sessionStorage.clear();
  registerToast(null);
  registerNavigator(null);
});
afterAll(() => server.close());
