import { RE2JS, RE2JSSyntaxException } from 're2js';

/**
 * Format patterns (`field.pattern.regex`) are written by designers and run on the server for every save, and in the
 * browser as the user types. They run in RE2 (the pure-JS `re2js` port, the same code on both sides), whose matching
 * time is linear in the value's length whatever the pattern: no pattern can backtrack (ReDoS). RE2 has no
 * back-references and no lookaround; such a pattern is refused with a message saying why. The pattern, its compiled
 * size and the value are bounded, so one check costs at most about (program size × value length) steps.
 *
 * Syntax is RE2's (https://github.com/google/re2/wiki/Syntax), plus the JavaScript escapes `\uXXXX` and `\u{X…}`
 * that designers copy from JavaScript examples (`[\u4e00-\u9fa5]`). Differences from a JavaScript RegExp a designer
 * may notice: `\s` is ASCII white space only; `.` and a class match a whole character (an emoji is one).
 * Every place that compiles a user's pattern goes through `compilePattern`.
 */

import {
  PATTERN_DEFINITION_BUDGET,
  PATTERN_MAX_LENGTH,
  PATTERN_MAX_PROGRAM,
  PATTERN_VALUE_MAX_LENGTH,
} from './pattern-limits';

export { PATTERN_DEFINITION_BUDGET, PATTERN_MAX_LENGTH, PATTERN_MAX_PROGRAM, PATTERN_VALUE_MAX_LENGTH };

export type CompiledPattern = {
  /** Whether the whole value matches (as `^(?:pattern)$`); false, unmatched, past PATTERN_VALUE_MAX_LENGTH. */
  matches(value: string): boolean;
};

export type PatternResult = { ok: true; pattern: CompiledPattern } | { ok: false; reason: string };

const HEX = /^[0-9A-Fa-f]+$/;

/**
 * The JavaScript `\uXXXX` / `\u{X…}` escapes rewritten as RE2's `\x{X…}`; every other escape is left for RE2 to judge.
 * Returns null when a `\u` is not followed by a valid code (JavaScript would read a literal `u`: refused instead).
 */
function rewriteUnicodeEscapes(source: string): string | null {
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const ch = source[i] as string;
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const next = source[i + 1];
    if (next !== 'u') {
      out += ch + (next ?? '');
      i++;
      continue;
    }
    if (source[i + 2] === '{') {
      const end = source.indexOf('}', i + 3);
      const hex = end < 0 ? '' : source.slice(i + 3, end);
      if (!HEX.test(hex) || hex.length > 6) return null;
      out += `\\x{${hex}}`;
      i = end;
      continue;
    }
    const hex = source.slice(i + 2, i + 6);
    if (hex.length !== 4 || !HEX.test(hex)) return null;
    out += `\\x{${hex}}`;
    i += 5;
  }
  return out;
}

/**
 * A cheap estimate of the compiled program's size, read from the source before compiling it (compiling a pattern
 * that expands to tens of thousands of instructions, `[\s\S]{1000}[\s\S]{1000}…`, takes most of a second): each
 * atom counts 1, a counted repetition multiplies what it repeats (`(ab{3}){10}` is 10 × (1 + 3 + 1), `a{0,9}` 18). RE2's program is
 * at least about this big, so a pattern over the limit here would be refused after compiling anyway.
 */
function estimatedProgramSize(source: string): number {
  // The weight of each open group's content so far (the pattern itself at the bottom), and of the item just read.
  const open: number[] = [0];
  const add = (weight: number) => {
    open[open.length - 1] = (open[open.length - 1] ?? 0) + weight;
  };
  let last = 0;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === '(') {
      open.push(0);
      continue;
    }
    if (ch === '{') {
      const counts = /^\{(\d+)(?:,(\d*))?\}/.exec(source.slice(i, i + 24));
      if (counts !== null) {
        // `x{m,n}` is m copies of x and n - m optional ones (each one more instruction); `x{m,}` ends in a loop.
        const min = Number(counts[1]);
        const max = counts[2] === undefined ? min : counts[2] === '' ? min + 1 : Math.max(min, Number(counts[2]));
        const weight = min * last + (max - min) * (last + 1);
        add(weight - last);
        last = weight;
        i += counts[0].length - 1;
        continue;
      }
    }
    if (ch === ')') {
      last = (open.length > 1 ? (open.pop() ?? 0) : 0) + 1;
    } else if (ch === '*' || ch === '+' || ch === '?' || ch === '|') {
      last = ch === '|' ? 0 : last;
      add(1);
      continue;
    } else if (ch === '\\') {
      // `\x{…}`, `\p{…}`, `\P{…}` carry braces that are not a repetition.
      const braced = 'xpP'.includes(source[i + 1] ?? '') && source[i + 2] === '{';
      i = braced ? Math.max(source.indexOf('}', i), i + 1) : i + 1;
      last = 1;
    } else if (ch === '[') {
      // A class is one instruction; `[]a]` and `[^]a]` start with a literal `]`.
      i += source[i + 1] === '^' ? 2 : 1;
      if (source[i] === ']') i++;
      while (i < source.length && source[i] !== ']') i += source[i] === '\\' ? 2 : 1;
      last = 1;
    } else {
      last = 1;
    }
    add(last);
  }
  return open.reduce((sum, weight) => sum + weight, 0);
}

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

/**
 * Compiles a designer's pattern, or says why it is refused. With a budget (checkDefinition's, for a whole
 * definition), the pattern's estimated size is taken from it, and a pattern that no longer fits is refused uncompiled. The reason reads after "…的正则表达式" (`不能使用反向引用
 * （如 \1、\k<名称>）`, `无效（缺少 )）`). Never throws.
 */
export function compilePattern(source: string, budget?: { left: number }): PatternResult {
  if (source.length > PATTERN_MAX_LENGTH) return { ok: false, reason: `不能超过 ${PATTERN_MAX_LENGTH} 个字符` };
  const rewritten = rewriteUnicodeEscapes(source);
  if (rewritten === null) return { ok: false, reason: '无效（\\u 后须为 4 位十六进制编码，如 \\u4e00）' };
  const estimate = estimatedProgramSize(rewritten);
  if (estimate > PATTERN_MAX_PROGRAM) return TOO_COMPLEX;
  if (budget !== undefined) {
    if (estimate > budget.left)
      return { ok: false, reason: '未检查（本数据库的正则表达式合计过于复杂，请减少或简化）' };
    budget.left -= estimate;
  }
  const hit = compiled.get(rewritten);
  if (hit !== undefined) {
    compiled.delete(rewritten);
    compiled.set(rewritten, hit);
    return hit;
  }
  const result = compileRe2(rewritten);
  compiled.set(rewritten, result);
  if (compiled.size > COMPILED_MAX) compiled.delete(compiled.keys().next().value as string);
  return result;
}

const TOO_COMPLEX = { ok: false, reason: '过于复杂（重复次数太多或太长），请简化，如用 + 代替很大的 {m,n}' } as const;

/**
 * The compiled patterns last used, by source, least recently used out first: a record check that parses a
 * published version anew, or a draft saved again, does not compile its patterns again.
 */
const compiled = new Map<string, PatternResult>();
const COMPILED_MAX = 500;

function compileRe2(source: string): PatternResult {
  let re: RE2JS;
  try {
    re = RE2JS.compile(source);
  } catch (error) {
    return { ok: false, reason: error instanceof RE2JSSyntaxException ? syntaxReason(error) : '无效' };
  }
  if (re.programSize() > PATTERN_MAX_PROGRAM) return TOO_COMPLEX;
  return {
    ok: true,
    pattern: {
      // The matcher's one-pass / bit-state / NFA engines (all linear): on large Unicode classes (`\pL{490}`) they are
      // far cheaper than `testExact`'s DFA, which builds its states on the first call.
      matches: (value) => value.length <= PATTERN_VALUE_MAX_LENGTH && re.matcher(value).matches(),
    },
  };
}
