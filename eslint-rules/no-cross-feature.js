import path from 'node:path';

/**
 * A file of `apps/web/src/features/<a>/` imports nothing from `apps/web/src/features/<b>/` (static and dynamic
 * imports, re-exports): what two features share lives in `src/api`, `src/components` or `src/lib`, and `src/app`
 * composes features. Relative paths are resolved against the importing file.
 */
const FEATURES = /(?:^|\/)apps\/web\/src\/features\/([^/]+)\//;

function featureOf(file) {
  const match = FEATURES.exec(file.split(path.sep).join('/'));
  return match ? match[1] : null;
}

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: { description: 'a web feature must not import another feature' },
    schema: [],
    messages: {
      crossFeature:
        "功能模块 '{{from}}' 不得导入功能模块 '{{to}}'（{{source}}）：共用的放到 src/api、src/components 或 src/lib，由 src/app 组合。",
    },
  },
  create(context) {
    const filename = context.filename ?? context.getFilename();
    const own = featureOf(filename);
    if (!own) return {};
    function check(node, sourceNode) {
      if (!sourceNode || sourceNode.type !== 'Literal' || typeof sourceNode.value !== 'string') return;
      const source = sourceNode.value;
      if (!source.startsWith('.')) return;
      const target = featureOf(path.resolve(path.dirname(filename), source) + '/');
      if (target && target !== own) {
        context.report({ node, messageId: 'crossFeature', data: { from: own, to: target, source } });
      }
    }
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
    };
  },
};
