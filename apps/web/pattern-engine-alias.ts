import { fileURLToPath } from 'node:url';

/**
 * Quality P7: the format patterns' RE2 engine (re2js) is not registered at start in the browser: `pattern.ts`'s
 * `./pattern-eager` is the browser's (nothing); src/lib/pattern-engine.ts imports it when a form has a pattern. The
 * build (vite.config.ts) and the web tests (vitest.config.ts) both resolve it so, so the tests run the web's way.
 */
export const PATTERN_EAGER_BROWSER = {
  find: /^\.\/pattern-eager$/,
  replacement: fileURLToPath(new URL('../../packages/shared/src/forms/pattern-eager.browser.ts', import.meta.url)),
};
