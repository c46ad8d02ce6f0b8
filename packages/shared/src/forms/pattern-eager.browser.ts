import type { PatternEngine } from './pattern';

/**
 * The web's `pattern-eager.ts` (apps/web/vite.config.ts and vitest.config.ts resolve it here): no engine at first,
 * so re2js is not in the first route's JavaScript; apps/web/src/lib/pattern-engine.ts loads and registers it.
 */
export const eagerPatternEngine: PatternEngine | null = null;
