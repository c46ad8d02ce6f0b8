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
    // The one time limit of a web test: no file or describe raises its own. A page test renders antd pages in jsdom and
    // its first test also loads the page's modules, so the slowest take tens of seconds on a busy machine. Measured on
    // 2 cores at a load average of 11-17 (other suites beside it, far above a CI lane's): the slowest tests took
    // 25-29 s (patient list filters, designer save and binding, the first test of the member and center pages, the
    // dictionary import), one 45 s at the peak (the patient form's date-picker keyboard test). 60 s leaves room for a
    // loaded 2-core CI machine running the web tests beside the other lanes. Hooks likewise: the setup's beforeAll
    // loads the dialogs' modules, past 10 s (vitest's default) at that load.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
