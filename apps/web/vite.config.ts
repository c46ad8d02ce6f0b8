import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { PATTERN_EAGER_BROWSER } from './pattern-engine-alias';

const API_TARGET = 'http://127.0.0.1:3000';

/** Writes `dist/version.json` with a value that changes on every build; the navigation guard compares it. */
function versionFile(): Plugin {
  return {
    name: 'registry-version-file',
    apply: 'build',
    generateBundle() {
      const version = `${new Date().toISOString().replace(/[-:.TZ]/g, '')}-${randomBytes(3).toString('hex')}`;
      this.emitFile({ type: 'asset', fileName: 'version.json', source: `${JSON.stringify({ version })}\n` });
    },
  };
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map)$/;
/** Below this the headers outweigh the saving. */
const MIN_COMPRESS_BYTES = 1024;

/**
 * Writes `<file>.br` (quality 11) and `<file>.gz` (level 9) beside every compressible file of the build, so the server
 * (`@fastify/static` with `preCompressed`) sends them by Accept-Encoding without compressing per request.
 * `version.json` is left alone: the server reads it and answers it itself.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'registry-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir.startsWith('/') ? config.build.outDir : join(config.root, config.build.outDir);
    },
    async writeBundle(_options, bundle) {
      const files = Object.keys(bundle).filter(
        (name) => COMPRESSIBLE.test(name) && name !== 'version.json' && !name.startsWith('.vite/'),
      );
      await Promise.all(
        files.map(async (name) => {
          const path = join(outDir, name);
          const raw = await readFile(path);
          if (raw.length < MIN_COMPRESS_BYTES) return;
          const [br, gz] = await Promise.all([
            brotli(raw, {
              params: {
                [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
                [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length,
              },
            }),
            gzipAsync(raw, { level: 9 }),
          ]);
          if (br.length < raw.length) await writeFile(`${path}.br`, br);
          if (gz.length < raw.length) await writeFile(`${path}.gz`, gz);
        }),
      );
    },
  };
}

/**
 * antd modules whose import of another antd module serves a feature our pages rarely use, so a page that uses the
 * importer does not need the imported module at first: `Card` renders `Tabs` only with `tabList`, a `Table` column's
 * filter renders `Tree` only with `filterMode: 'tree'`. Besides, antd's form context reads only `FormProvider` from
 * `@rc-component/form`, a table's row selection four helpers from `@rc-component/tree` and a radio group one name
 * helper from antd's form hook: as written, they bring the whole form engine (and async-validator) into every page
 * and the Tree component into every table.
 * Key: the importer's path under antd/es, then the import source.
 */
const ANTD_DEFERRED: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'card/Card.js': { '../tabs': 'antd/es/tabs' },
  'table/hooks/useFilter/FilterDropdown.js': { '../../../tree': 'antd/es/tree' },
};
const LAZY_PREFIX = '\0registry-lazy:';
/** The tree helpers a table's row selection reads, without `@rc-component/tree`'s index (the Tree component). */
const RC_TREE_UTILS = '\0registry-rc-tree-utils';
/** The one helper a radio group reads from antd's form hook (a table's selection column uses radios). */
const RADIO_NAME_PATH = '\0registry-radio-name-path';

/**
 * Quality P7 (JavaScript on the first route): the component imports of ANTD_DEFERRED become `React.lazy` components
 * that load their module when first rendered (the same element, a moment later); antd's form context imports
 * `FormProvider` from its own module instead of the package index. Build only (tests import antd as it is).
 */
function antdDeferred(): Plugin {
  return {
    name: 'registry-antd-deferred',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (!importer) return null;
      const path = importer.replaceAll('\\', '/');
      if (source === '@rc-component/form' && path.endsWith('/antd/es/form/context.js')) {
        return this.resolve('@rc-component/form/es/FormContext', importer, { skipSelf: true });
      }
      if (source === '@rc-component/tree' && path.endsWith('/antd/es/table/hooks/useSelection.js'))
        return RC_TREE_UTILS;
      if (source === '../form/hooks/useForm' && path.endsWith('/antd/es/radio/group.js')) return RADIO_NAME_PATH;
      const under = path.match(/\/node_modules\/antd\/es\/(.+)$/)?.[1];
      const target = under === undefined ? undefined : ANTD_DEFERRED[under]?.[source];
      return target === undefined ? null : `${LAZY_PREFIX}${target}`;
    },
    load(id) {
      if (id === RC_TREE_UTILS) {
        return [
          "export { arrAdd, arrDel } from '@rc-component/tree/es/util';",
          "export { conductCheck } from '@rc-component/tree/es/utils/conductUtil';",
          "export { convertDataToEntities } from '@rc-component/tree/es/utils/treeUtil';",
        ].join('\n');
      }
      if (id === RADIO_NAME_PATH) {
        // antd/es/form/hooks/useForm.js's toNamePathStr, without the form hook (and the form engine) around it.
        return [
          "import { toArray } from 'antd/es/form/util';",
          "export function toNamePathStr(name) { return toArray(name).join('_'); }",
        ].join('\n');
      }
      if (!id.startsWith(LAZY_PREFIX)) return null;
      const target = id.slice(LAZY_PREFIX.length);
      return [
        "import { createElement, lazy, Suspense } from 'react';",
        `const Component = lazy(() => import(${JSON.stringify(target)}));`,
        'export default function Deferred(props) {',
        '  return createElement(Suspense, { fallback: null }, createElement(Component, props));',
        '}',
      ].join('\n');
    },
  };
}

/** antd's style-hook factories; their second argument is the function that generates the component's CSS. */
const ANTD_STYLE_FACTORIES = new Set(['genStyleHooks', 'genComponentStyleHook', 'genSubStyleComponent']);

type EstreeNode = { type: string; start: number; end: number; [key: string]: unknown };

/** Every CallExpression under `node` (a plain walk over the estree that Rollup's parser returns). */
function callsIn(node: unknown, out: EstreeNode[] = []): EstreeNode[] {
  if (Array.isArray(node)) {
    for (const child of node) callsIn(child, out);
  } else if (node && typeof node === 'object' && typeof (node as EstreeNode).type === 'string') {
    const n = node as EstreeNode;
    if (n.type === 'CallExpression') out.push(n);
    for (const [key, value] of Object.entries(n)) if (key !== 'type' && typeof value === 'object') callsIn(value, out);
  }
  return out;
}

/**
 * Quality P7 and P8: antd runs in zero-runtime mode (`config/theme.ts`), its component CSS comes from the prebuilt
 * `antd/dist/antd.css`, and `@ant-design/cssinjs-utils` returns from a style hook before it calls the style function.
 * The style functions are dead code that would still be shipped: in each `antd/es/<component>/style/*.js`, the style
 * function passed to genStyleHooks / genComponentStyleHook / genSubStyleComponent becomes `() => []`, so Rollup drops
 * them and everything only they use. The component-token functions (third argument) stay: antd still registers the
 * theme's tokens as CSS variables. Build only; tests run antd as it is.
 */
function antdStyleFunctionsDropped(): Plugin {
  return {
    name: 'registry-antd-zero-runtime-styles',
    apply: 'build',
    transform(code, id) {
      const path = id.replaceAll('\\', '/');
      if (!/\/node_modules\/antd\/es\/.+\/style\/[^/]+\.js$/.test(path)) return null;
      if (![...ANTD_STYLE_FACTORIES].some((name) => code.includes(name))) return null;
      const calls = callsIn(this.parse(code)).filter((call) => {
        const callee = call.callee as EstreeNode;
        return callee.type === 'Identifier' && ANTD_STYLE_FACTORIES.has(callee.name as string);
      });
      const styleArgs = calls
        .map((call) => (call.arguments as EstreeNode[])[1])
        .filter((arg): arg is EstreeNode => arg !== undefined)
        .sort((a, b) => b.start - a.start);
      if (styleArgs.length === 0) return null;
      let out = code;
      for (const arg of styleArgs) out = `${out.slice(0, arg.start)}() => []${out.slice(arg.end)}`;
      return { code: out, map: null };
    },
  };
}

/** Vendor chunks that change rarely, so a new build does not invalidate the browser's cache of them. */
const VENDOR_GROUPS = [
  { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/, priority: 30 },
  {
    name: 'antd-core',
    test: /[\\/]node_modules[\\/](@ant-design[\\/](cssinjs|colors|fast-color)|@rc-component[\\/]util)[\\/]/,
    priority: 25,
  },
  { name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]/, priority: 20 },
  { name: 'vendor', test: /[\\/]node_modules[\\/](axios|@tanstack|zustand|dayjs|nprogress)[\\/]/, priority: 10 },
];

export default defineConfig({
  plugins: [antdDeferred(), antdStyleFunctionsDropped(), react(), versionFile(), precompress()],
  resolve: { alias: [PATTERN_EAGER_BROWSER] },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: true },
      '/version.json': { target: API_TARGET, changeOrigin: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: true },
      '/version.json': { target: API_TARGET, changeOrigin: true },
    },
  },
  build: {
    chunkSizeWarningLimit: 1200,
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: { groups: VENDOR_GROUPS },
      },
    },
  },
});
