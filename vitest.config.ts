import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/shared', 'apps/server', 'apps/web'],
    // Vitest's default for `vitest run` is one worker less than the cores: one worker on a 2-core machine (CI), which
    // left one core idle while the web and server suites ran file after file. Two at least.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
