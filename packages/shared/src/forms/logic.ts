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
 * The language is spread over four modules: this one (the AST, the Pratt parser with positioned Chinese errors, the
 * printer), `logic-tokenize.ts` (the tokenizer), `logic-values.ts` (how values read: blank, numbers, text, dates)
 * and `logic-eval.ts` (the total evaluator, with the semantics it documents).
 */

import { LogicSyntaxError, tokenize, type Token } from './logic-tokenize';

export type LogicRef = { key: string; code?: string };

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
