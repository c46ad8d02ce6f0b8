import { RE2JS, RE2JSSyntaxException } from 're2js';
import { PATTERN_MAX_PROGRAM, PATTERN_TOO_COMPLEX_REASON, PATTERN_VALUE_MAX_LENGTH } from './pattern-limits';
import type { PatternEngine, PatternResult } from './pattern';

/**
 * The RE2 engine of format patterns (`pattern.ts`): re2js, the same code on the server and in the browser. The
 * server registers it eagerly (`pattern-eager.ts`); the web imports this module on demand.
 */

/** Why RE2 refused a pattern, in words a designer can act on. */
function syntaxReason(error: RE2JSSyntaxException): string {
  const input = error.input ?? '';
  switch (error.error) {
    case 'invalid escape sequence':
      if (/^\\[1-9]/.test(input) || input.startsWith('\\k')) return '不能使用反向引用（如 \\1、\\k<名称>）';
      return `无效（不支持转义符 ${input}）`;
    case 'invalid or unsupported Perl syntax':
      if (input.startsWith('(?=') || input.startsWith('(?!')) return '不能使用前瞻断言（(?=…)、(?!…)）';
      return `无效（不支持的写法 ${input}）`;
    case 'invalid named capture':
      if (input.startsWith('(?<=') || input.startsWith('(?<!')) return '不能使用后顾断言（(?<=…)、(?<!…)）';
      return '无效（命名分组的写法有误）';
    case 'invalid nested repetition operator':
      return `不能连续使用两个重复符号（${input}），请合并为一个`;
    case 'invalid repeat count':
      return `中的重复次数有误（${input}）：{m,n} 中 m 不能大于 n，且都不能超过 1000`;
    case 'missing closing ]':
      return '无效（缺少 ]）';
    case 'missing closing )':
      return '无效（缺少 )）';
    case 'unexpected )':
      return '无效（多了 )）';
    case 'missing argument to repetition operator':
      return `无效（${input} 前没有可重复的内容）`;
    case 'trailing backslash at end of expression':
      return '无效（末尾多了 \\）';
    case 'invalid character class range':
      return `无效（字符范围 ${input} 有误）`;
    case 'duplicate capture group name':
      return '无效（分组名重复）';
    case 'expression nests too deeply':
    case 'expression too large':
      return '过于复杂，请简化';
    default:
      return '无效';
  }
}

function compileRe2(source: string): PatternResult {
  let re: RE2JS;
  try {
    re = RE2JS.compile(source);
  } catch (error) {
    return { ok: false, reason: error instanceof RE2JSSyntaxException ? syntaxReason(error) : '无效' };
  }
  if (re.programSize() > PATTERN_MAX_PROGRAM) return { ok: false, reason: PATTERN_TOO_COMPLEX_REASON };
  return {
    ok: true,
    pattern: {
      // The matcher's one-pass / bit-state / NFA engines (all linear): on large Unicode classes (`\pL{490}`) they are
      // far cheaper than `testExact`'s DFA, which builds its states on the first call.
      matches: (value) => value.length <= PATTERN_VALUE_MAX_LENGTH && re.matcher(value).matches(),
    },
  };
}

export const re2PatternEngine: PatternEngine = { compile: compileRe2 };
