import { defineProject } from 'vitest/config';
import { fileURLToPath } from 'node:url';

export default defineProject({
  // The browser's pattern engine start (none, loaded on demand), as in the build (vite.config.ts, PATTERN_EAGER_BROWSER).
  resolve: {
    alias: [
      {
        find: /^\.\/pattern-eager$/,
        replacement: fileURLToPath(
          new URL('../../packages/shared/src/forms/pattern-eager.browser.ts', import.meta.url),
        ),
      },
    ],
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    testTimeout: 30000,
  },
});
