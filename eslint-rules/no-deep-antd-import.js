/**
 * antd is imported from its package root (`import { Table, type TableColumnsType } from 'antd'`), never from its build
 * folders `antd/es/*` or `antd/lib/*` (internal paths that move between versions; `lib` is the CommonJS build, which
 * also defeats tree shaking). Static and dynamic imports and re-exports are checked. The few deep imports that keep a
 * first route small (quality.md P7) say so where they stand, with an eslint-disable comment giving the reason.
 */
const DEEP = /^antd\/(es|lib)(\/|$)/;

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: { description: "import antd from 'antd', not from antd/es/* or antd/lib/*" },
    schema: [],
    messages: {
      deep: "不要从 '{{source}}' 导入 antd：请从 'antd' 导入（类型也由 'antd' 导出）。",
    },
  },
  create(context) {
    function check(node, sourceNode) {
      if (!sourceNode || sourceNode.type !== 'Literal' || typeof sourceNode.value !== 'string') return;
      if (DEEP.test(sourceNode.value)) context.report({ node, messageId: 'deep', data: { source: sourceNode.value } });
    }
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
    };
  },
};
