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
 *
 * The engine itself (`pattern-re2.ts`, re2js: about 47 KiB gzip) is registered here: eagerly wherever
 * `./pattern-eager` is the real one (the server, scripts, the shared tests); the web build and web tests resolve it
 * to `pattern-eager.browser.ts` (nothing), and the web loads the engine with a dynamic import when a form with a
 * format pattern is shown (`apps/web/src/lib/pattern-engine.ts`). Without an engine a pattern is never judged by
 * another one: `compilePattern` says it could not check (`unavailable`), and the record check reports that.
 */

import {
  PATTERN_DEFINITION_BUDGET,
  PATTERN_MAX_LENGTH,
  PATTERN_MAX_PROGRAM,
  PATTERN_TOO_COMPLEX_REASON,
  PATTERN_VALUE_MAX_LENGTH,
} from './pattern-limits';
import { eagerPatternEngine } from './pattern-eager';

export { PATTERN_DEFINITION_BUDGET, PATTERN_MAX_LENGTH, PATTERN_MAX_PROGRAM, PATTERN_VALUE_MAX_LENGTH };

export type CompiledPattern = {
  /** Whether the whole value matches (as `^(?:pattern)$`); false, unmatched, past PATTERN_VALUE_MAX_LENGTH. */
  matches(value: string): boolean;
};

export type PatternResult =
  | { ok: true; pattern: CompiledPattern }
  /** `unavailable`: no engine is registered (yet): the pattern was not judged. */
  | { ok: false; reason: string; unavailable?: true };

/** The RE2 engine behind `compilePattern`: compiles a pattern already rewritten and estimated. */
export type PatternEngine = { compile(source: string): PatternResult };

let engine: PatternEngine | null = eagerPatternEngine;
let engineGeneration = 0;

/** Makes `engine` the one `compilePattern` uses (the web, once its dynamic import of `pattern-re2.ts` is in). */
export function registerPatternEngine(next: PatternEngine): void {
  if (engine === next) return;
  engine = next;
  engineGeneration++;
  compiled.clear();
}

/** Whether `compilePattern` can judge a pattern now. */
export function patternEngineReady(): boolean {
  return engine !== null;
}

/** Changes when an engine is registered: what was compiled without one is compiled again. */
export function patternEngineGeneration(): number {
  return engineGeneration;
}

const UNAVAILABLE = { ok: false, reason: '未检查（格式校验组件尚未加载）', unavailable: true } as const;

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
  if (engine === null) return UNAVAILABLE;
  const hit = compiled.get(rewritten);
  if (hit !== undefined) {
    compiled.delete(rewritten);
    compiled.set(rewritten, hit);
    return hit;
  }
  const result = engine.compile(rewritten);
  compiled.set(rewritten, result);
  if (compiled.size > COMPILED_MAX) compiled.delete(compiled.keys().next().value as string);
  return result;
}

const TOO_COMPLEX = { ok: false, reason: PATTERN_TOO_COMPLEX_REASON } as const;

/**
 * The compiled patterns last used, by source, least recently used out first: a record check that parses a
 * published version anew, or a draft saved again, does not compile its patterns again.
 */
const compiled = new Map<string, PatternResult>();
const COMPILED_MAX = 500;
