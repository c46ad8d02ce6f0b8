/**
 * The evaluator of the logic language (`logic.ts` parses): a tree walk over the AST, total (it never throws).
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

import { parseLogic, type LogicNode } from './logic';
import {
  UNIT_MS,
  compare,
  dateOf,
  equals,
  finite,
  isBlank,
  isTruthy,
  numbersOf,
  readRawValue,
  roundWith,
  timeOf,
  toNumber,
  toText,
  todayOf,
  type LogicScope,
  type LogicValue,
} from './logic-values';

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
