import { defineProject } from 'vitest/config';
import { PATTERN_EAGER_BROWSER } from './pattern-engine-alias';

export default defineProject({
  // the browser's pattern engine start (none, loaded on demand), as in the build
  resolve: { alias: [PATTERN_EAGER_BROWSER] },
  test: {
    name: 'web',
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    testTimeout: 30000,
  },
});
