/**
 * The tokenizer of the logic language (`logic.ts`): numbers, strings, `[key]` / `[key(code)]` references, names and
 * operators, each with its character span; `#` comment lines skipped. A mistake throws a positioned Chinese
 * `LogicSyntaxError`, which `parseLogic` turns into its result.
 */

export type Token =
  | { t: 'number'; value: number; pos: number; end: number }
  | { t: 'string'; value: string; pos: number; end: number }
  | { t: 'ref'; key: string; code?: string; pos: number; end: number }
  | { t: 'name'; value: string; pos: number; end: number }
  | { t: 'op'; value: string; pos: number; end: number }
  | { t: 'eof'; pos: number; end: number };

export class LogicSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
  }
}

const OPERATORS = [
  '<=',
  '>=',
  '<>',
  '!=',
  '==',
  '&&',
  '||',
  '=',
  '<',
  '>',
  '+',
  '-',
  '*',
  '/',
  '^',
  '(',
  ')',
  ',',
  '!',
];
const KEY_CHARS = /[A-Za-z0-9_]/;
const CODE_CHARS = /[A-Za-z0-9_.-]/;

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

/** Only spaces or tabs between the previous line break (or the start) and `i`. */
function atLineStart(src: string, i: number): boolean {
  for (let j = i - 1; j >= 0; j--) {
    const c = src[j];
    if (c === '\n' || c === '\r') return true;
    if (c !== ' ' && c !== '\t') return false;
  }
  return true;
}

export function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i] as string;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\u3000' || c === '\u00a0') {
      i++;
      continue;
    }
    if (c === '#' && atLineStart(src, i)) {
      // A comment line (REDCap 12+): `# ...` up to the end of the line.
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    const start = i;
    if (isDigit(c) || (c === '.' && isDigit(src[i + 1]))) {
      while (isDigit(src[i])) i++;
      if (src[i] === '.') {
        i++;
        while (isDigit(src[i])) i++;
      }
      if (
        (src[i] === 'e' || src[i] === 'E') &&
        (isDigit(src[i + 1]) || (/[+-]/.test(src[i + 1] ?? '') && isDigit(src[i + 2])))
      ) {
        i += 2;
        while (isDigit(src[i])) i++;
      }
      if (src[i] !== undefined && /[A-Za-z_]/.test(src[i] as string)) {
        throw new LogicSyntaxError(`第 ${i + 1} 个字符处的数字格式不正确`, i);
      }
      tokens.push({ t: 'number', value: Number(src.slice(start, i)), pos: start, end: i });
      continue;
    }
    if (c === "'" || c === '"') {
      i++;
      let value = '';
      for (;;) {
        if (i >= src.length) throw new LogicSyntaxError(`第 ${start + 1} 个字符处的字符串缺少结束引号 ${c}`, start);
        const d = src[i] as string;
        if (d === c) {
          if (src[i + 1] === c) {
            value += c;
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += d;
        i++;
      }
      tokens.push({ t: 'string', value, pos: start, end: i });
      continue;
    }
    if (c === '[') {
      i++;
      while (src[i] === ' ') i++;
      const keyStart = i;
      while (i < src.length && KEY_CHARS.test(src[i] as string)) i++;
      const key = src.slice(keyStart, i);
      if (key === '') {
        if (i >= src.length) throw new LogicSyntaxError(`第 ${start + 1} 个字符处的变量引用缺少右方括号`, start);
        throw new LogicSyntaxError(`第 ${i + 1} 个字符处应为变量名`, i);
      }
      let code: string | undefined;
      if (src[i] === '(') {
        i++;
        const codeStart = i;
        while (i < src.length && CODE_CHARS.test(src[i] as string)) i++;
        code = src.slice(codeStart, i);
        if (code === '') throw new LogicSyntaxError(`第 ${i + 1} 个字符处应为选项编码`, i);
        if (src[i] !== ')') throw new LogicSyntaxError(`第 ${i + 1} 个字符处缺少右括号`, i);
        i++;
      }
      while (src[i] === ' ') i++;
      if (src[i] !== ']') {
        if (i >= src.length) throw new LogicSyntaxError(`第 ${i + 1} 个字符处缺少右方括号`, i);
        throw new LogicSyntaxError(`变量名中无法识别的字符「${src[i]}」（第 ${i + 1} 个字符）`, i);
      }
      i++;
      tokens.push(
        code === undefined ? { t: 'ref', key, pos: start, end: i } : { t: 'ref', key, code, pos: start, end: i },
      );
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      while (i < src.length && /[A-Za-z0-9_]/.test(src[i] as string)) i++;
      tokens.push({ t: 'name', value: src.slice(start, i), pos: start, end: i });
      continue;
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (op !== undefined) {
      i += op.length;
      tokens.push({ t: 'op', value: op, pos: start, end: i });
      continue;
    }
    throw new LogicSyntaxError(`无法识别的字符「${c}」（第 ${i + 1} 个字符）`, i);
  }
  tokens.push({ t: 'eof', pos: src.length, end: src.length });
  return tokens;
}
