import noCrossFeature from './no-cross-feature.js';
import noDeepAntdImport from './no-deep-antd-import.js';

/** The repository's own ESLint rules (`local/...` in eslint.config.js), each proven by `eslint-rules.test.ts`. */
export default {
  meta: { name: 'registry-local' },
  rules: { 'no-cross-feature': noCrossFeature, 'no-deep-antd-import': noDeepAntdImport },
};
