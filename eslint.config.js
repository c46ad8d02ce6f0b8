import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import local from './eslint-rules/index.js';

// The server's boundaries (docs/architecture.md): only repositories (`*.repository.ts`) and src/db touch Drizzle and
// SQL; a module never imports another module's repository (src/domain holds what several modules share). Tests, test
// support and the demo-data seeds (`*.seed.ts`, loaders run by main.ts beside src/db/seed.ts) are exempt from the first.
// Proven by apps/server/test/boundaries.test.ts; the graph between modules is checked by scripts/module-graph.mjs.
const DRIZZLE_ONLY_IN_REPOSITORIES = [
  { regex: '^drizzle-orm(/.*)?$', message: 'Drizzle 只在 *.repository.ts 与 src/db 中使用：把查询移到仓储文件。' },
  {
    regex: '(^|/)db/schema(\\.ts|/.*)?$',
    message: 'Drizzle 表只在 *.repository.ts 与 src/db 中使用：把查询移到仓储文件。',
  },
];
const REPOSITORY_MESSAGE = '模块不得导入其他模块的仓储：调用它的服务，或把共享查询移到 src/domain。';
/** From a module: `../<other module>/x.repository` (or a path through `modules/`). */
const NOT_ANOTHER_MODULES_REPOSITORY = [
  {
    regex: '^\\.\\./[^./][^/]*/[^/]+\\.repository(\\.ts)?$|(^|/)modules/[^/]+/[^/]+\\.repository(\\.ts)?$',
    message: REPOSITORY_MESSAGE,
  },
];
/** From src/domain: no module's repository at all (the domain is what modules share, not a way into one). */
const NO_MODULES_REPOSITORY = [
  { regex: '(^|/)modules/[^/]+/[^/]+\\.repository(\\.ts)?$', message: REPOSITORY_MESSAGE },
];
const SERVER_TESTS = [
  'apps/server/src/**/*.test.ts',
  'apps/server/src/**/*.test-factory.ts',
  'apps/server/src/**/*.test-support.ts',
];
const REPOSITORIES = ['apps/server/src/**/*.repository.ts'];
const SEEDS = ['apps/server/src/**/*.seed.ts'];
const restrict = (files, ignores, patterns) => ({
  files,
  ignores: [...ignores, ...SERVER_TESTS],
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});
// Each file gets exactly one of these (a later no-restricted-imports would replace an earlier one's patterns).
const serverBoundaries = [
  restrict(
    ['apps/server/src/modules/**/*.ts'],
    [...REPOSITORIES, ...SEEDS],
    [...DRIZZLE_ONLY_IN_REPOSITORIES, ...NOT_ANOTHER_MODULES_REPOSITORY],
  ),
  restrict(['apps/server/src/modules/**/*.repository.ts', ...SEEDS], [], NOT_ANOTHER_MODULES_REPOSITORY),
  restrict(['apps/server/src/domain/**/*.ts'], REPOSITORIES, [
    ...DRIZZLE_ONLY_IN_REPOSITORIES,
    ...NO_MODULES_REPOSITORY,
  ]),
  restrict(['apps/server/src/domain/**/*.repository.ts'], [], NO_MODULES_REPOSITORY),
  // the rest of the server (app, main, config, lib, plugins): Drizzle only in its repositories and src/db, and no
  // module's repository (a module is reached through its services, routes and jobs)
  restrict(
    ['apps/server/src/**/*.ts'],
    ['apps/server/src/modules/**', 'apps/server/src/domain/**', 'apps/server/src/db/**', ...REPOSITORIES],
    [...DRIZZLE_ONLY_IN_REPOSITORIES, ...NO_MODULES_REPOSITORY],
  ),
];

// A module's repository is its own: a service or route may call it, never hand its queries out to other modules by
// re-exporting them (that would be another module's repository by the back door). Types may be re-exported.
const noRepositoryReexport = {
  files: ['apps/server/src/modules/**/*.ts', 'apps/server/src/domain/**/*.ts'],
  ignores: [...REPOSITORIES, ...SERVER_TESTS],
  rules: {
    'no-restricted-syntax': [
      'error',
      {
        selector: "ExportNamedDeclaration[exportKind='value'][source.value=/\\.repository(\\.ts)?$/]",
        message: '不得转出仓储的查询：在服务中提供所需的方法，供其他模块调用。',
      },
      {
        selector: 'ExportAllDeclaration[source.value=/\\.repository(\\.ts)?$/]',
        message: '不得转出仓储的查询：在服务中提供所需的方法，供其他模块调用。',
      },
    ],
  },
};

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '.data/**',
      'test-results/**',
      'playwright-report/**',
      'apps/server/drizzle/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, local },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // A feature never imports another feature (src/api, src/components, src/lib hold what they share).
      'local/no-cross-feature': 'error',
      // antd from 'antd', not from its build folders.
      'local/no-deep-antd-import': 'error',
    },
  },
  ...serverBoundaries,
  noRepositoryReexport,
);
