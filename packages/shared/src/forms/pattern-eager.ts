import type { PatternEngine } from './pattern';
import { re2PatternEngine } from './pattern-re2';

/**
 * The engine `pattern.ts` starts with: RE2 at once (the server, scripts, the shared tests: patterns are checked
 * synchronously from the first call). The web resolves this module to `pattern-eager.browser.ts` instead.
 */
export const eagerPatternEngine: PatternEngine | null = re2PatternEngine;
