/**
 * The logic language of the form engine: show-if conditions, calculated fields and cross-field rules. REDCap-like so
 * that imported branching logic translates almost verbatim. A hand-written tokenizer and Pratt parser build an AST; a
 * tree-walking evaluator runs it. Nothing is ever handed to `eval` or `Function`.
 *
 * A line whose first non-blank character is `#` is a comment (as in REDCap); a `#` elsewhere is an error.
 *
 * Grammar (lowest precedence first):
 *   or  := and ( ('or' | '||') and )*
 *   and := not ( ('and' | '&&') not )*
 *   not := ('not' | '!') not | cmp
 *   cmp := add ( ('=' | '==' | '!=' | '<>' | '<' | '<=' | '>' | '>=') add )*
 *   add := mul ( ('+' | '-') mul )*
 *   mul := neg ( ('*' | '/') neg )*
 *   neg := ('-' | '+') neg | pow
 *   pow := atom ( '^' neg )?            (right associative: 2^3^2 = 2^9; -2^2 = -4)
 *   atom := number | string | true | false | [key] | [key(code)] | name '(' args ')' | '(' or ')'
 *
 * Semantics (documented choices):
 * - Blank is null: a missing value, '', [] or a missing-data code all read as null. Arithmetic and functions of
 *   numbers propagate null; division by zero, a non-finite result or a non-numeric operand give null.
 * - `=` / `!=` (`<>`): two blanks are equal; a blank and a non-blank are not equal, so `[x] = ''` is true exactly
 *   when x is blank. Ordering (`<`, `<=`, `>`, `>=`) with a blank operand is null (a rule over blank inputs passes).
 * - Values that both read as numbers (numbers, booleans as 1/0, numeric strings) compare as numbers; otherwise as
 *   strings (ISO dates therefore compare chronologically).
 * - `and` / `or` / `not` are three-valued (Kleene): `null and false` = false, `null or true` = true, `not null` = null.
 *   Only `true`, a non-zero number and a non-empty string other than '0' are truthy (`isTruthy`).
 * - `[key(code)]` is 1 when the checkbox holds that option code (or the single-choice value equals it), else 0.
 *   `[key]` of a checkbox reads as its codes joined by ','; of a group or file list as its number of rows.
 * - `datediff(d1, d2, unit, format, signed)` as REDCap's: the distance between d1 and d2 in unit 'y'
 *   (days / 365.2425), 'M' (days / 30.44), 'd', 'h', 'm' or 's', not rounded (wrap it in `rounddown` for completed
 *   years). Absolute unless the last argument is `true` (REDCap's returnSignedValue, default false), then d2 − d1.
 *   A REDCap date-format argument ('ymd', ...) is accepted and ignored (our dates are ISO). Dates are `YYYY-MM-DD`
 *   or `YYYY-MM-DDTHH:mm` (seconds and a space separator accepted), read as UTC; 'today' is the scope's `today`
 *   (else today in Asia/Shanghai, `dates.ts`). Two times of day (`HH:MM`, `HH:MM:SS`, REDCap's time fields) are read on the
 *   same day; a time against a date, or an invalid value, gives null.
 * - `round(x, n)` rounds half away from zero; `roundup` away from zero; `rounddown` toward zero.
 * - `sum`, `mean`, `min`, `max`, `median`, `stdev` ignore blank and non-numeric arguments; all blank → null.
 * - Evaluation is total: it never throws, whatever the data.
 */

import { shanghaiToday } from '../dates';

export type LogicRef = { key: string; code?: string };

export type LogicValue = number | string | boolean | null;

export type BinaryOperator = 'or' | 'and' | '=' | '!=' | '<' | '<=' | '>' | '>=' | '+' | '-' | '*' | '/' | '^';
export type UnaryOperator = 'not' | '-' | '+';

export type LogicNode =
  | { kind: 'number'; value: number; pos: number }
  | { kind: 'string'; value: string; pos: number }
  | { kind: 'boolean'; value: boolean; pos: number }
  | { kind: 'ref'; key: string; code?: string; pos: number }
  | { kind: 'unary'; op: UnaryOperator; arg: LogicNode; pos: number }
  | { kind: 'binary'; op: BinaryOperator; left: LogicNode; right: LogicNode; pos: number }
  | { kind: 'call'; name: string; args: LogicNode[]; pos: number };

export type LogicParseSuccess = { ok: true; ast: LogicNode; refs: LogicRef[] };
export type LogicParseError = { ok: false; message: string; position: number };
export type LogicParseResult = LogicParseSuccess | LogicParseError;

/**
 * What an expression reads. `get` returns the raw stored value of a field (any JSON); `code` is passed for
 * `[key(code)]` (the raw value is still the field's whole value; the evaluator tests the code).
 */
export type LogicScope = {
  get: (key: string, code?: string) => unknown;
  /** `YYYY-MM-DD`: the date `today()` and 'today' stand for (default: today in Asia/Shanghai; tests fix it). */
  today?: string;
  /** Strings that read as blank (the definition's missing-data codes). */
  missingCodes?: ReadonlySet<string>;
};

// ---------------------------------------------------------------------------------------------------------------
// Tokenizer

type Token =
  | { t: 'number'; value: number; pos: number; end: number }
  | { t: 'string'; value: string; pos: number; end: number }
  | { t: 'ref'; key: string; code?: string; pos: number; end: number }
  | { t: 'name'; value: string; pos: number; end: number }
  | { t: 'op'; value: string; pos: number; end: number }
  | { t: 'eof'; pos: number; end: number };

class LogicSyntaxError extends Error {
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

function tokenize(src: string): Token[] {
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

// ---------------------------------------------------------------------------------------------------------------
// Functions

type FunctionSpec = { min: number; max: number; lazy?: boolean };

/** Functions of the language with their argument counts (max = Infinity for variadic). */
export const LOGIC_FUNCTIONS: Readonly<Record<string, FunctionSpec>> = {
  if: { min: 3, max: 3, lazy: true },
  round: { min: 1, max: 2 },
  roundup: { min: 1, max: 2 },
  rounddown: { min: 1, max: 2 },
  abs: { min: 1, max: 1 },
  sqrt: { min: 1, max: 1 },
  exponential: { min: 1, max: 1 },
  log: { min: 1, max: 2 },
  min: { min: 1, max: Infinity },
  max: { min: 1, max: Infinity },
  sum: { min: 1, max: Infinity },
  mean: { min: 1, max: Infinity },
  median: { min: 1, max: Infinity },
  stdev: { min: 1, max: Infinity },
  datediff: { min: 3, max: 5 },
  today: { min: 0, max: 0 },
  year: { min: 1, max: 1 },
  month: { min: 1, max: 1 },
  day: { min: 1, max: 1 },
  isblank: { min: 1, max: 1 },
  isnumber: { min: 1, max: 1 },
  contains: { min: 2, max: 2 },
  not_contain: { min: 2, max: 2 },
  starts_with: { min: 2, max: 2 },
  ends_with: { min: 2, max: 2 },
  len: { min: 1, max: 1 },
  lower: { min: 1, max: 1 },
  upper: { min: 1, max: 1 },
  trim: { min: 1, max: 1 },
  left: { min: 2, max: 2 },
  right: { min: 2, max: 2 },
  mid: { min: 3, max: 3 },
  concat: { min: 1, max: Infinity },
};

function arityText(spec: FunctionSpec): string {
  if (spec.min === spec.max) return spec.min === 0 ? '不需要参数' : `需要 ${spec.min} 个参数`;
  if (spec.max === Infinity) return `至少需要 ${spec.min} 个参数`;
  return `需要 ${spec.min} 到 ${spec.max} 个参数`;
}

// ---------------------------------------------------------------------------------------------------------------
// Parser (Pratt)

const BINARY_POWER: Record<string, { op: BinaryOperator; left: number; right: number }> = {
  or: { op: 'or', left: 10, right: 11 },
  '||': { op: 'or', left: 10, right: 11 },
  and: { op: 'and', left: 20, right: 21 },
  '&&': { op: 'and', left: 20, right: 21 },
  '=': { op: '=', left: 40, right: 41 },
  '==': { op: '=', left: 40, right: 41 },
  '!=': { op: '!=', left: 40, right: 41 },
  '<>': { op: '!=', left: 40, right: 41 },
  '<': { op: '<', left: 40, right: 41 },
  '<=': { op: '<=', left: 40, right: 41 },
  '>': { op: '>', left: 40, right: 41 },
  '>=': { op: '>=', left: 40, right: 41 },
  '+': { op: '+', left: 50, right: 51 },
  '-': { op: '-', left: 50, right: 51 },
  '*': { op: '*', left: 60, right: 61 },
  '/': { op: '/', left: 60, right: 61 },
  '^': { op: '^', left: 80, right: 70 },
};
const NOT_POWER = 30;
const NEG_POWER = 70;
const MAX_DEPTH = 200;
const MAX_SOURCE_LENGTH = 5000;

class Parser {
  private index = 0;
  private depth = 0;
  readonly refs: LogicRef[] = [];
  private readonly seen = new Set<string>();

  constructor(private readonly tokens: Token[]) {}

  private peek(): Token {
    return this.tokens[this.index] as Token;
  }

  private next(): Token {
    const token = this.peek();
    if (token.t !== 'eof') this.index++;
    return token;
  }

  parseAll(): LogicNode {
    if (this.peek().t === 'eof') throw new LogicSyntaxError('表达式为空', 0);
    const node = this.expression(0);
    const rest = this.peek();
    if (rest.t !== 'eof') {
      if (rest.t === 'op' && rest.value === ')') {
        throw new LogicSyntaxError(`第 ${rest.pos + 1} 个字符处多了一个右括号`, rest.pos);
      }
      throw new LogicSyntaxError(`第 ${rest.pos + 1} 个字符处缺少运算符（「${describe(rest)}」前）`, rest.pos);
    }
    return node;
  }

  private expression(minPower: number): LogicNode {
    if (++this.depth > MAX_DEPTH) throw new LogicSyntaxError('表达式嵌套过深', this.peek().pos);
    let left = this.prefix();
    for (;;) {
      const token = this.peek();
      const key = token.t === 'op' ? token.value : token.t === 'name' ? token.value.toLowerCase() : null;
      const info = key === null ? undefined : BINARY_POWER[key];
      if (info === undefined || (token.t === 'name' && key !== 'and' && key !== 'or')) break;
      if (info.left < minPower) break;
      this.next();
      const right = this.expression(info.right);
      left = { kind: 'binary', op: info.op, left, right, pos: token.pos };
    }
    this.depth--;
    return left;
  }

  private prefix(): LogicNode {
    const token = this.next();
    switch (token.t) {
      case 'number':
        return { kind: 'number', value: token.value, pos: token.pos };
      case 'string':
        return { kind: 'string', value: token.value, pos: token.pos };
      case 'ref': {
        const id = token.code === undefined ? token.key : `${token.key}(${token.code})`;
        if (!this.seen.has(id)) {
          this.seen.add(id);
          this.refs.push(token.code === undefined ? { key: token.key } : { key: token.key, code: token.code });
        }
        return token.code === undefined
          ? { kind: 'ref', key: token.key, pos: token.pos }
          : { kind: 'ref', key: token.key, code: token.code, pos: token.pos };
      }
      case 'name':
        return this.name(token);
      case 'op':
        if (token.value === '(') {
          const inner = this.expression(0);
          const close = this.peek();
          if (close.t !== 'op' || close.value !== ')') {
            throw new LogicSyntaxError(`第 ${close.pos + 1} 个字符处缺少右括号`, close.pos);
          }
          this.next();
          return inner;
        }
        if (token.value === '-' || token.value === '+') {
          const arg = this.expression(NEG_POWER);
          return { kind: 'unary', op: token.value, arg, pos: token.pos };
        }
        if (token.value === '!') {
          const arg = this.expression(NOT_POWER);
          return { kind: 'unary', op: 'not', arg, pos: token.pos };
        }
        throw new LogicSyntaxError(`第 ${token.pos + 1} 个字符处应为值，却是「${token.value}」`, token.pos);
      case 'eof':
        throw new LogicSyntaxError(`第 ${token.pos + 1} 个字符处表达式不完整`, token.pos);
    }
  }

  private name(token: Extract<Token, { t: 'name' }>): LogicNode {
    const lower = token.value.toLowerCase();
    if (lower === 'true' || lower === 'false') return { kind: 'boolean', value: lower === 'true', pos: token.pos };
    if (lower === 'not') {
      const arg = this.expression(NOT_POWER);
      return { kind: 'unary', op: 'not', arg, pos: token.pos };
    }
    const open = this.peek();
    if (open.t !== 'op' || open.value !== '(') {
      if (lower === 'and' || lower === 'or') {
        throw new LogicSyntaxError(`第 ${token.pos + 1} 个字符处「${token.value}」前缺少值`, token.pos);
      }
      throw new LogicSyntaxError(
        `未知名称 ${token.value}（第 ${token.pos + 1} 个字符）：变量须写成 [${token.value}]`,
        token.pos,
      );
    }
    const spec = LOGIC_FUNCTIONS[lower];
    if (spec === undefined) throw new LogicSyntaxError(`未知函数 ${token.value}`, token.pos);
    this.next();
    const args: LogicNode[] = [];
    const first = this.peek();
    if (first.t === 'op' && first.value === ')') {
      this.next();
    } else {
      for (;;) {
        args.push(this.expression(0));
        const sep = this.next();
        if (sep.t === 'op' && sep.value === ',') continue;
        if (sep.t === 'op' && sep.value === ')') break;
        throw new LogicSyntaxError(`第 ${sep.pos + 1} 个字符处缺少右括号`, sep.pos);
      }
    }
    if (args.length < spec.min || args.length > spec.max) {
      throw new LogicSyntaxError(`函数 ${lower} ${arityText(spec)}`, token.pos);
    }
    return { kind: 'call', name: lower, args, pos: token.pos };
  }
}

function describe(token: Token): string {
  switch (token.t) {
    case 'number':
      return String(token.value);
    case 'string':
      return `'${token.value}'`;
    case 'ref':
      return token.code === undefined ? `[${token.key}]` : `[${token.key}(${token.code})]`;
    case 'name':
    case 'op':
      return token.value;
    case 'eof':
      return '';
  }
}

/** Parses an expression; never throws. Errors carry a Chinese message and the 0-based character position. */
export function parseLogic(src: string): LogicParseResult {
  // Bounds the tree depth (a chain of operators nests one level per operator) so that evaluation cannot overflow.
  if (src.length > MAX_SOURCE_LENGTH) {
    return { ok: false, message: `表达式过长（最多 ${MAX_SOURCE_LENGTH} 个字符）`, position: MAX_SOURCE_LENGTH };
  }
  try {
    const parser = new Parser(tokenize(src));
    const ast = parser.parseAll();
    return { ok: true, ast, refs: parser.refs };
  } catch (error) {
    if (error instanceof LogicSyntaxError) return { ok: false, message: error.message, position: error.position };
    /* c8 ignore next */
    return { ok: false, message: '表达式无法解析', position: 0 };
  }
}

/** The error with the expression and a caret under the position, for a monospace hint in the designer. */
export function formatLogicError(src: string, error: { message: string; position: number }): string {
  const line = src.replace(/[\r\n\t]/g, ' ');
  const position = Math.max(0, Math.min(error.position, line.length));
  return `${error.message}\n${line}\n${' '.repeat(position)}^`;
}

// ---------------------------------------------------------------------------------------------------------------
// Printer (canonical source; parseLogic(printLogic(ast)) gives the same tree)

function printString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

function printNumber(value: number): string {
  if (!Number.isFinite(value)) return '0';
  return String(value);
}

/** Prints an AST as source, with parentheses around every compound operand. */
export function printLogic(node: LogicNode): string {
  switch (node.kind) {
    case 'number':
      return printNumber(node.value);
    case 'string':
      return printString(node.value);
    case 'boolean':
      return node.value ? 'true' : 'false';
    case 'ref':
      return node.code === undefined ? `[${node.key}]` : `[${node.key}(${node.code})]`;
    case 'unary':
      return node.op === 'not' ? `not (${printLogic(node.arg)})` : `${node.op}(${printLogic(node.arg)})`;
    case 'binary':
      return `(${printLogic(node.left)}) ${node.op} (${printLogic(node.right)})`;
    case 'call':
      return `${node.name}(${node.args.map(printLogic).join(', ')})`;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Values

/** Truthiness of a logic value: true, a non-zero number, or a non-empty string other than '0'. */
export function isTruthy(value: LogicValue): boolean {
  if (value === null) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0 && !Number.isNaN(value);
  const trimmed = value.trim();
  if (trimmed === '' || trimmed === '0' || trimmed.toLowerCase() === 'false') return false;
  const n = Number(trimmed);
  return NUMERIC.test(trimmed) ? n !== 0 : true;
}

const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A value as a number, or null when it does not read as one. */
export function toNumber(value: LogicValue): number | null {
  if (value === null) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  const trimmed = value.trim();
  if (!NUMERIC.test(trimmed)) return null;
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : null;
}

function isBlank(value: LogicValue): boolean {
  return value === null || value === '';
}

function finite(n: number): number | null {
  return Number.isFinite(n) ? n : null;
}

function toText(value: LogicValue): string {
  if (value === null) return '';
  if (typeof value === 'boolean') return value ? '1' : '0';
  return String(value);
}

/** Reads a raw stored value (any JSON) as a logic value. */
export function readRawValue(raw: unknown, code: string | undefined, missingCodes?: ReadonlySet<string>): LogicValue {
  if (code !== undefined) {
    if (Array.isArray(raw)) return raw.some((item) => item === code) ? 1 : 0;
    if (typeof raw === 'string' || typeof raw === 'number') return String(raw) === code ? 1 : 0;
    return 0;
  }
  if (raw === null || raw === undefined) return null;
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : null;
  if (typeof raw === 'boolean') return raw;
  if (typeof raw === 'string') {
    if (raw === '' || missingCodes?.has(raw)) return null;
    return raw;
  }
  if (Array.isArray(raw)) {
    if (raw.length === 0) return null;
    if (raw.every((item) => typeof item === 'string' || typeof item === 'number')) return raw.join(',');
    return raw.length;
  }
  return null;
}

// Dates --------------------------------------------------------------------------------------------------------

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/;

/** Milliseconds since the epoch (UTC) of a `YYYY-MM-DD[THH:mm[:ss]]` string, or null when it is not a real date. */
export function parseDateValue(value: string): number | null {
  const m = DATE_RE.exec(value.trim());
  if (m === null) return null;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((p) =>
    p === undefined ? 0 : Number(p),
  ) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(ms);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  return ms;
}

function todayOf(scope: LogicScope): string {
  return scope.today ?? shanghaiToday();
}

function dateOf(value: LogicValue, scope: LogicScope): number | null {
  if (typeof value !== 'string') return null;
  const text = value.trim().toLowerCase() === 'today' ? todayOf(scope) : value;
  return parseDateValue(text);
}

const TIME_RE = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;

/** A time of day (`HH:MM`, `HH:MM:SS`) as milliseconds since midnight; anything else null. */
function timeOf(value: LogicValue): number | null {
  if (typeof value !== 'string') return null;
  const m = TIME_RE.exec(value.trim());
  if (m === null) return null;
  const [h, min, sec] = [Number(m[1]), Number(m[2]), m[3] === undefined ? 0 : Number(m[3])];
  if (h > 23 || min > 59 || sec > 59) return null;
  return ((h * 60 + min) * 60 + sec) * 1000;
}

const UNIT_MS: Record<string, number> = {
  y: 365.2425 * 86400000,
  M: 30.44 * 86400000,
  d: 86400000,
  h: 3600000,
  m: 60000,
  s: 1000,
};

// Numbers ------------------------------------------------------------------------------------------------------

function roundWith(x: number, places: number, mode: 'round' | 'up' | 'down'): number | null {
  if (!Number.isInteger(places) || places > 15 || places < -15) return null;
  if (places >= 0 && Number.isInteger(x)) return x === 0 ? 0 : x;
  const sign = x < 0 ? -1 : 1;
  const abs = Math.abs(x);
  // Shift by decimal exponent strings to avoid binary drift (1.005 → 1.01).
  const shifted = Number(`${abs}e${places}`);
  const fix = (n: number) => {
    const r = Number(n.toPrecision(15));
    return mode === 'round' ? Math.round(r) : mode === 'up' ? Math.ceil(r) : Math.floor(r);
  };
  let result: number;
  if (Number.isFinite(shifted) && !String(abs).includes('e')) {
    result = Number(`${fix(shifted)}e${-places}`);
  } else {
    const f = 10 ** places;
    result = fix(abs * f) / f;
  }
  return finite(sign * result) === null ? null : sign * result || 0;
}

/** Rounds half away from zero to `places` decimals (what calculated fields with a precision use). */
export function roundTo(x: number, places: number): number {
  return roundWith(x, places, 'round') ?? x;
}

function numbersOf(values: LogicValue[]): number[] {
  const out: number[] = [];
  for (const v of values) {
    const n = toNumber(v);
    if (n !== null) out.push(n);
  }
  return out;
}

// Comparison ---------------------------------------------------------------------------------------------------

function compare(a: LogicValue, b: LogicValue): number {
  const na = toNumber(a);
  const nb = toNumber(b);
  if (na !== null && nb !== null) return na < nb ? -1 : na > nb ? 1 : 0;
  const sa = toText(a);
  const sb = toText(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

function equals(a: LogicValue, b: LogicValue): boolean {
  const blankA = isBlank(a);
  const blankB = isBlank(b);
  if (blankA || blankB) return blankA && blankB;
  return compare(a, b) === 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Evaluator

function evalBinary(node: Extract<LogicNode, { kind: 'binary' }>, scope: LogicScope): LogicValue {
  if (node.op === 'and') {
    const left = evaluateLogic(node.left, scope);
    if (left !== null && !isTruthy(left)) return false;
    const right = evaluateLogic(node.right, scope);
    if (right !== null && !isTruthy(right)) return false;
    return left === null || right === null ? null : true;
  }
  if (node.op === 'or') {
    const left = evaluateLogic(node.left, scope);
    if (isTruthy(left)) return true;
    const right = evaluateLogic(node.right, scope);
    if (isTruthy(right)) return true;
    return left === null || right === null ? null : false;
  }
  const left = evaluateLogic(node.left, scope);
  const right = evaluateLogic(node.right, scope);
  switch (node.op) {
    case '=':
      return equals(left, right);
    case '!=':
      return !equals(left, right);
    case '<':
    case '<=':
    case '>':
    case '>=': {
      if (isBlank(left) || isBlank(right)) return null;
      const c = compare(left, right);
      return node.op === '<' ? c < 0 : node.op === '<=' ? c <= 0 : node.op === '>' ? c > 0 : c >= 0;
    }
    default: {
      const a = toNumber(left);
      const b = toNumber(right);
      if (a === null || b === null) return null;
      switch (node.op) {
        case '+':
          return finite(a + b);
        case '-':
          return finite(a - b);
        case '*':
          return finite(a * b);
        case '/':
          return b === 0 ? null : finite(a / b);
        case '^':
          return finite(a ** b);
      }
    }
  }
}

function evalCall(node: Extract<LogicNode, { kind: 'call' }>, scope: LogicScope): LogicValue {
  if (node.name === 'if') {
    const [cond, yes, no] = node.args as [LogicNode, LogicNode, LogicNode];
    return isTruthy(evaluateLogic(cond, scope)) ? evaluateLogic(yes, scope) : evaluateLogic(no, scope);
  }
  const args = node.args.map((arg) => evaluateLogic(arg, scope));
  const a0 = args[0] ?? null;
  const a1 = args[1] ?? null;
  const num0 = toNumber(a0);
  switch (node.name) {
    case 'round':
    case 'roundup':
    case 'rounddown': {
      if (num0 === null) return null;
      const places = args.length > 1 ? toNumber(a1) : 0;
      if (places === null) return null;
      return roundWith(num0, places, node.name === 'round' ? 'round' : node.name === 'roundup' ? 'up' : 'down');
    }
    case 'abs':
      return num0 === null ? null : Math.abs(num0);
    case 'sqrt':
      return num0 === null || num0 < 0 ? null : Math.sqrt(num0);
    case 'exponential':
      return num0 === null ? null : finite(Math.exp(num0));
    case 'log': {
      if (num0 === null || num0 <= 0) return null;
      if (args.length === 1) return Math.log(num0);
      const base = toNumber(a1);
      if (base === null || base <= 0 || base === 1) return null;
      return finite(Math.log(num0) / Math.log(base));
    }
    case 'min':
    case 'max':
    case 'sum':
    case 'mean':
    case 'median':
    case 'stdev': {
      const ns = numbersOf(args);
      if (ns.length === 0) return null;
      const total = ns.reduce((s, n) => s + n, 0);
      if (node.name === 'min') return Math.min(...ns);
      if (node.name === 'max') return Math.max(...ns);
      if (node.name === 'sum') return finite(total);
      const mean = total / ns.length;
      if (node.name === 'mean') return finite(mean);
      if (node.name === 'median') {
        const sorted = [...ns].sort((x, y) => x - y);
        const mid = Math.floor(sorted.length / 2);
        return sorted.length % 2 === 1
          ? (sorted[mid] as number)
          : finite(((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2);
      }
      if (ns.length < 2) return null;
      return finite(Math.sqrt(ns.reduce((s, n) => s + (n - mean) ** 2, 0) / (ns.length - 1)));
    }
    case 'datediff': {
      const t1 = timeOf(a0);
      const t2 = timeOf(a1);
      const times = t1 !== null && t2 !== null;
      const d1 = times ? t1 : dateOf(a0, scope);
      const d2 = times ? t2 : dateOf(a1, scope);
      const unit = args[2];
      if (d1 === null || d2 === null || typeof unit !== 'string') return null;
      const ms = UNIT_MS[unit];
      if (ms === undefined) return null;
      const flag = args.length > 3 ? args[args.length - 1] : undefined;
      const signed = flag === true || (typeof flag === 'string' && flag.trim().toLowerCase() === 'true');
      const diff = (d2 - d1) / ms;
      return finite(signed ? diff : Math.abs(diff));
    }
    case 'today':
      return todayOf(scope);
    case 'year':
    case 'month':
    case 'day': {
      const ms = dateOf(a0, scope);
      if (ms === null) return null;
      const d = new Date(ms);
      return node.name === 'year' ? d.getUTCFullYear() : node.name === 'month' ? d.getUTCMonth() + 1 : d.getUTCDate();
    }
    case 'isblank':
      return isBlank(a0);
    case 'isnumber':
      return toNumber(a0) !== null && typeof a0 !== 'boolean';
    case 'contains':
    case 'not_contain':
    case 'starts_with':
    case 'ends_with': {
      if (isBlank(a0)) return node.name === 'not_contain';
      const hay = toText(a0).toLowerCase();
      const needle = toText(a1).toLowerCase();
      if (node.name === 'contains') return hay.includes(needle);
      if (node.name === 'not_contain') return !hay.includes(needle);
      if (node.name === 'starts_with') return hay.startsWith(needle);
      return hay.endsWith(needle);
    }
    case 'len':
      return [...toText(a0)].length;
    case 'lower':
      return isBlank(a0) ? null : toText(a0).toLowerCase();
    case 'upper':
      return isBlank(a0) ? null : toText(a0).toUpperCase();
    case 'trim':
      return isBlank(a0) ? null : toText(a0).trim();
    case 'left':
    case 'right': {
      const n = toNumber(a1);
      if (isBlank(a0) || n === null || n < 0) return null;
      const chars = [...toText(a0)];
      const count = Math.floor(n);
      return node.name === 'left' ? chars.slice(0, count).join('') : chars.slice(chars.length - count).join('');
    }
    case 'mid': {
      const start = toNumber(a1);
      const count = toNumber(args[2] ?? null);
      if (isBlank(a0) || start === null || count === null || start < 1 || count < 0) return null;
      return [...toText(a0)].slice(Math.floor(start) - 1, Math.floor(start) - 1 + Math.floor(count)).join('');
    }
    case 'concat':
      return args.map(toText).join('');
    default:
      return null;
  }
}

/** Evaluates an AST. Total: never throws, whatever the scope returns (bad input → null). */
export function evaluateLogic(node: LogicNode, scope: LogicScope): LogicValue {
  switch (node.kind) {
    case 'number':
      return node.value;
    case 'string':
      return node.value;
    case 'boolean':
      return node.value;
    case 'ref': {
      let raw: unknown;
      try {
        raw = scope.get(node.key, node.code);
      } catch {
        raw = null;
      }
      return readRawValue(raw, node.code, scope.missingCodes);
    }
    case 'unary': {
      const v = evaluateLogic(node.arg, scope);
      if (node.op === 'not') return v === null ? null : !isTruthy(v);
      const n = toNumber(v);
      if (n === null) return null;
      return node.op === '-' ? (n === 0 ? 0 : -n) : n;
    }
    case 'binary':
      return evalBinary(node, scope);
    case 'call':
      return evalCall(node, scope);
  }
}

/** Parses and evaluates in one go (tests, one-off use): a syntax error evaluates to null. */
export function evaluateSource(src: string, scope: LogicScope): LogicValue {
  const parsed = parseLogic(src);
  return parsed.ok ? evaluateLogic(parsed.ast, scope) : null;
}

/** A scope over one record's data (plus, optionally, a group row whose columns resolve first). */
export function scopeOf(
  data: Readonly<Record<string, unknown>>,
  options: {
    today?: string;
    missingCodes?: ReadonlySet<string>;
    external?: Readonly<Record<string, unknown>>;
    row?: { columns: ReadonlySet<string>; values: Readonly<Record<string, unknown>> };
  } = {},
): LogicScope {
  const { row, external } = options;
  const own = (obj: Readonly<Record<string, unknown>> | undefined, key: string) =>
    obj !== undefined && typeof obj === 'object' && Object.prototype.hasOwnProperty.call(obj, key)
      ? obj[key]
      : undefined;
  return {
    get: (key) => {
      if (row !== undefined && row.columns.has(key)) return own(row.values, key);
      const value = own(data, key);
      return value === undefined ? own(external, key) : value;
    },
    ...(options.today === undefined ? {} : { today: options.today }),
    ...(options.missingCodes === undefined ? {} : { missingCodes: options.missingCodes }),
  };
}

/** Every `[key]` / `[key(code)]` of a tree with its position, in source order (repeats included). */
export function listRefNodes(node: LogicNode): Extract<LogicNode, { kind: 'ref' }>[] {
  const out: Extract<LogicNode, { kind: 'ref' }>[] = [];
  const walk = (n: LogicNode) => {
    if (n.kind === 'ref') out.push(n);
    else if (n.kind === 'unary') walk(n.arg);
    else if (n.kind === 'binary') {
      walk(n.left);
      walk(n.right);
    } else if (n.kind === 'call') n.args.forEach(walk);
  };
  walk(node);
  return out;
}

/** Mistakes a parse accepts but evaluation would always turn into blank: an unknown datediff unit. */
export function lintLogic(node: LogicNode): { message: string; position: number }[] {
  const out: { message: string; position: number }[] = [];
  const walk = (n: LogicNode) => {
    if (n.kind === 'unary') walk(n.arg);
    else if (n.kind === 'binary') {
      walk(n.left);
      walk(n.right);
    } else if (n.kind === 'call') {
      if (n.name === 'datediff') {
        const unit = n.args[2];
        if (unit?.kind === 'string' && UNIT_MS[unit.value] === undefined) {
          out.push({
            message: `函数 datediff 的时间单位「${unit.value}」无效（可用 y、M、d、h、m、s）`,
            position: unit.pos,
          });
        }
      }
      n.args.forEach(walk);
    }
  };
  walk(node);
  return out;
}
