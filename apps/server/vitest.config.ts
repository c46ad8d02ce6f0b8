import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    environment: 'node',
    testTimeout: 30000,
    // The files of a worker share one module graph: the app's modules are imported once per worker instead of once per
    // file (measured on four route files: import time 47 s → 14 s, CPU −37 %). Each file still has its own database and
    // app (test/test-app.ts), and no module keeps state that one file could leave for another; a test that changes
    // process.env or fakes timers restores them.
    isolate: false,
    hookTimeout: 60000,
  },
});
