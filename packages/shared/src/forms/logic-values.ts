/**
 * How the logic language (`logic.ts`, `logic-eval.ts`) reads values: blank, truthiness, numbers, text, dates and
 * times of day, rounding and comparison. The semantics are documented in `logic-eval.ts`.
 */

import { shanghaiToday } from '../dates';

export type LogicValue = number | string | boolean | null;

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

export function isBlank(value: LogicValue): boolean {
  return value === null || value === '';
}

export function finite(n: number): number | null {
  return Number.isFinite(n) ? n : null;
}

export function toText(value: LogicValue): string {
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

export function todayOf(scope: LogicScope): string {
  return scope.today ?? shanghaiToday();
}

export function dateOf(value: LogicValue, scope: LogicScope): number | null {
  if (typeof value !== 'string') return null;
  const text = value.trim().toLowerCase() === 'today' ? todayOf(scope) : value;
  return parseDateValue(text);
}

const TIME_RE = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;

/** A time of day (`HH:MM`, `HH:MM:SS`) as milliseconds since midnight; anything else null. */
export function timeOf(value: LogicValue): number | null {
  if (typeof value !== 'string') return null;
  const m = TIME_RE.exec(value.trim());
  if (m === null) return null;
  const [h, min, sec] = [Number(m[1]), Number(m[2]), m[3] === undefined ? 0 : Number(m[3])];
  if (h > 23 || min > 59 || sec > 59) return null;
  return ((h * 60 + min) * 60 + sec) * 1000;
}

export const UNIT_MS: Record<string, number> = {
  y: 365.2425 * 86400000,
  M: 30.44 * 86400000,
  d: 86400000,
  h: 3600000,
  m: 60000,
  s: 1000,
};

// Numbers ------------------------------------------------------------------------------------------------------

export function roundWith(x: number, places: number, mode: 'round' | 'up' | 'down'): number | null {
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

export function numbersOf(values: LogicValue[]): number[] {
  const out: number[] = [];
  for (const v of values) {
    const n = toNumber(v);
    if (n !== null) out.push(n);
  }
  return out;
}

// Comparison ---------------------------------------------------------------------------------------------------

export function compare(a: LogicValue, b: LogicValue): number {
  const na = toNumber(a);
  const nb = toNumber(b);
  if (na !== null && nb !== null) return na < nb ? -1 : na > nb ? 1 : 0;
  const sa = toText(a);
  const sb = toText(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

export function equals(a: LogicValue, b: LogicValue): boolean {
  const blankA = isBlank(a);
  const blankB = isBlank(b);
  if (blankA || blankB) return blankA && blankB;
  return compare(a, b) === 0;
}
