import type { RecordIssue } from '../contracts/form-definition';
import type { AnyField, FormDefinition } from './definition';
import type { LogicNode } from './logic';
import { evaluateLogic } from './logic-eval';
import { isTruthy, roundTo, toNumber, type LogicScope } from './logic-values';
import { shanghaiToday } from '../dates';
import { checkValue, type Sink } from './record-check';
import {
  compileForm,
  hasOwn,
  isGroup,
  isPlainObject,
  type Compiled,
  type CompiledForm,
  type CompiledGroup,
  type Step,
} from './record-compile';
import { isAbnormal, isBlankValue, sameValue } from './values';

export { isAbnormal, isBlankValue, sameValue };

/**
 * The record engine: what the web renderer and the server both run on one form's data. `evaluateForm` computes the
 * calculated fields and which fields are hidden; `validateRecord` adds the verdict (types, required, ranges,
 * patterns, cross-field rules) and the data as it would be stored (calcs computed, hidden fields cleared). A form
 * is compiled once (`record-compile.ts`); one value is checked against its field in `record-check.ts`.
 */

export type MissingCodesInput = Iterable<string | { code: string }>;

export type EvaluateContext = {
  /** The definition's missing-data codes (they read as blank in logic; a field accepts its own that are listed). */
  missingCodes?: MissingCodesInput;
  /** Values of the patient's other forms, for cross-form references (`[key]` of a field not on this form). */
  external?: Readonly<Record<string, unknown>>;
  /** `YYYY-MM-DD` for `today()` and 'today' date bounds (default: today in Asia/Shanghai, `dates.ts`). */
  today?: string;
};

export type ValidateContext = EvaluateContext & {
  /** 'draft' skips the required checks (and the minimum row count). */
  mode: 'draft' | 'submit';
  /** Whether a dictionary holds a code (dict fields); without it any code is accepted. */
  dictionaryHas?: (dictCode: string, code: string) => boolean;
};

export type FormEvaluation = {
  /** The data with calculated fields computed (hidden fields still hold what they held). */
  data: Record<string, unknown>;
  /** Paths of the hidden fields: `weight`, `meds` (a whole group), `meds.2.dose` (one row's cell). */
  hidden: string[];
  /** The hidden paths that still hold data (never a calc): to clear before saving. */
  clear: string[];
};

export type RecordVerdict = {
  /** No hard issue. */
  valid: boolean;
  issues: RecordIssue[];
  /** The data as it would be stored: calcs computed, hidden fields cleared, unknown keys dropped. */
  data: Record<string, unknown>;
};

// ---------------------------------------------------------------------------------------------------------------
// Helpers

function codeSet(input: MissingCodesInput | undefined): Set<string> | undefined {
  if (input === undefined) return undefined;
  const out = new Set<string>();
  for (const item of input) out.add(typeof item === 'string' ? item : item.code);
  return out;
}

function calcValue(node: LogicNode | null, scope: LogicScope, precision: number | undefined): number | null {
  if (node === null) return null;
  const n = toNumber(evaluateLogic(node, scope));
  if (n === null) return null;
  return precision === undefined ? n : roundTo(n, precision);
}

// ---------------------------------------------------------------------------------------------------------------
// evaluateForm

type Evaluated = {
  data: Record<string, unknown>;
  hiddenFields: Set<string>;
  /** group key → row index → hidden column keys */
  hiddenCells: Map<string, Map<number, Set<string>>>;
  compiled: CompiledForm;
  missing: Set<string> | undefined;
  /** What reads as blank in logic: the definition's codes, else those the form's fields accept. */
  blankCodes: ReadonlySet<string>;
  today: string;
};

function evaluate(form: FormDefinition, input: Readonly<Record<string, unknown>>, ctx: EvaluateContext): Evaluated {
  const compiled = compileForm(form);
  const missing = codeSet(ctx.missingCodes);
  const blankCodes = missing ?? compiled.fieldMissingCodes;
  const today = ctx.today ?? shanghaiToday();
  const source = isPlainObject(input) ? input : {};
  const external = isPlainObject(ctx.external) ? ctx.external : {};

  // The working copy: own keys of the data, group rows copied (calc cells are written into them).
  const data: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    const value = source[key];
    const c = compiled.byKey.get(key);
    // defineProperty: a JSON key `__proto__` stays an own key (reported as unknown), never the prototype.
    Object.defineProperty(data, key, {
      value:
        c !== undefined && isGroup(c) && Array.isArray(value)
          ? value.map((row) => (isPlainObject(row) ? { ...row } : row))
          : value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }

  const hiddenFields = new Set<string>();
  const hiddenCellsByGroup = new Map<string, Map<number, Set<string>>>();

  const topScope = (hidden: Set<string>): LogicScope => ({
    get: (key) => {
      const c = compiled.byKey.get(key);
      if (c !== undefined) return hidden.has(key) || !c.holdsData ? null : hasOwn(data, key) ? data[key] : null;
      return hasOwn(external, key) ? external[key] : null;
    },
    today,
    missingCodes: blankCodes,
  });
  const rowScope = (
    parent: LogicScope,
    group: CompiledGroup,
    row: Record<string, unknown>,
    hiddenInRow: Set<string> | undefined,
  ): LogicScope => ({
    ...parent,
    get: (key, code) => {
      const c = group.columnByKey.get(key);
      if (c !== undefined) return hiddenInRow?.has(key) || !c.holdsData ? null : hasOwn(row, key) ? row[key] : null;
      return parent.get(key, code);
    },
  });

  // Decide each field after what it reads: its visibility (show-if), then, for a calc, its value. A hidden field
  // reads as blank. Fields whose show-ifs / formulas refer to each other in a circle (checkDefinition refuses that)
  // are iterated a bounded number of times, deterministically.
  const decide = (
    c: Compiled<AnyField>,
    s: LogicScope,
    hidden: Set<string>,
    target: Record<string, unknown>,
  ): boolean => {
    const key = c.field.key;
    const visible = c.showIf === null || isTruthy(evaluateLogic(c.showIf, s));
    const wasHidden = hidden.has(key);
    if (visible) hidden.delete(key);
    else hidden.add(key);
    let changed = wasHidden === visible;
    if (c.field.type === 'calc') {
      const before = target[key];
      const value = visible ? calcValue(c.formula, s, c.field.precision) : null;
      if (value === null) delete target[key];
      else target[key] = value;
      if (!Object.is(before, target[key])) changed = true;
    }
    return changed;
  };
  const run = (order: Step[], s: LogicScope, hidden: Set<string>, target: Record<string, unknown>) => {
    for (const step of order) {
      if (!step.cyclic) {
        decide(step.members[0] as Compiled<AnyField>, s, hidden, target);
        continue;
      }
      const rounds = step.members.length + 2;
      for (let round = 0; round < rounds; round++) {
        let changed = false;
        for (const c of step.members) if (decide(c, s, hidden, target)) changed = true;
        if (!changed && round > 0) break;
      }
    }
  };

  const scope = topScope(hiddenFields);
  run(compiled.order, scope, hiddenFields, data);
  for (const g of compiled.fields) {
    if (!isGroup(g) || hiddenFields.has(g.field.key)) continue;
    const rows = data[g.field.key];
    if (!Array.isArray(rows)) continue;
    const byRow = new Map<number, Set<string>>();
    rows.forEach((row: unknown, index) => {
      if (!isPlainObject(row)) return;
      const hiddenInRow = new Set<string>();
      run(g.order, rowScope(scope, g, row, hiddenInRow), hiddenInRow, row);
      if (hiddenInRow.size > 0) byRow.set(index, hiddenInRow);
    });
    if (byRow.size > 0) hiddenCellsByGroup.set(g.field.key, byRow);
  }
  return { data, hiddenFields, hiddenCells: hiddenCellsByGroup, compiled, missing, blankCodes, today };
}

function hiddenPaths(ev: Evaluated): { hidden: string[]; clear: string[] } {
  const hidden: string[] = [];
  const clear: string[] = [];
  for (const c of ev.compiled.fields) {
    const key = c.field.key;
    if (ev.hiddenFields.has(key)) {
      hidden.push(key);
      if (c.field.type !== 'calc' && c.holdsData && hasOwn(ev.data, key) && !isBlankValue(ev.data[key]))
        clear.push(key);
      continue;
    }
    if (!isGroup(c)) continue;
    const byRow = ev.hiddenCells.get(key);
    const rows = ev.data[key];
    if (byRow === undefined || !Array.isArray(rows)) continue;
    [...byRow.keys()]
      .sort((x, y) => x - y)
      .forEach((index) => {
        const row: unknown = rows[index];
        const set = byRow.get(index) ?? new Set<string>();
        for (const col of c.columns) {
          if (!set.has(col.field.key)) continue;
          const path = `${key}.${index}.${col.field.key}`;
          hidden.push(path);
          if (
            col.field.type !== 'calc' &&
            col.holdsData &&
            isPlainObject(row) &&
            hasOwn(row, col.field.key) &&
            !isBlankValue(row[col.field.key])
          ) {
            clear.push(path);
          }
        }
      });
  }
  return { hidden, clear };
}

/**
 * Computes the calculated fields (dependency order, rounded to their precision, blank inputs → blank) and the hidden
 * fields (show-if false, or inside a hidden group; to a fixed point, hidden fields reading as blank).
 */
export function evaluateForm(
  form: FormDefinition,
  data: Readonly<Record<string, unknown>>,
  ctx: EvaluateContext = {},
): FormEvaluation {
  const ev = evaluate(form, data, ctx);
  return { data: ev.data, ...hiddenPaths(ev) };
}

// ---------------------------------------------------------------------------------------------------------------
// validateRecord

/**
 * The verdict on one form's data. Hidden fields are cleared and never reported; calcs are computed (a sent value is
 * replaced); unknown keys are hard issues and dropped. Total and deterministic: never throws on any JSON input.
 */
export function validateRecord(
  form: FormDefinition,
  input: Readonly<Record<string, unknown>>,
  ctx: ValidateContext,
): RecordVerdict {
  const ev = evaluate(form, input, ctx);
  const { compiled, missing, today } = ev;
  const issues: RecordIssue[] = [];
  const report: Sink = (path, fieldKey, message, level) => issues.push({ path, fieldKey, message, level });
  const submit = ctx.mode === 'submit';
  const accepted = (field: AnyField, value: unknown) =>
    typeof value === 'string' &&
    (field.missingCodes ?? []).includes(value) &&
    (missing === undefined || missing.has(value));

  // The data as stored: hidden cleared, unknown dropped.
  const data: Record<string, unknown> = {};
  for (const key of Object.keys(ev.data)) {
    const c = compiled.byKey.get(key);
    if (c === undefined || !c.holdsData) {
      report(key, key, c === undefined ? `未知字段 ${key}` : `「${c.field.label}」不能填写数据`, 'hard');
      continue;
    }
    if (ev.hiddenFields.has(key)) continue;
    if (isBlankValue(ev.data[key])) continue;
    data[key] = ev.data[key];
  }

  const scope: LogicScope = {
    get: (key) => (compiled.byKey.has(key) ? (hasOwn(data, key) ? data[key] : null) : ctx.external?.[key]),
    today,
    missingCodes: ev.blankCodes,
  };

  const checkRules = (c: Compiled<AnyField>, s: LogicScope, path: string) => {
    for (const rule of c.rules) {
      const result = evaluateLogic(rule.node, s);
      if (result !== null && !isTruthy(result)) report(path, c.field.key, rule.message, rule.level);
    }
  };

  for (const c of compiled.fields) {
    const { field } = c;
    if (!c.holdsData || ev.hiddenFields.has(field.key)) continue;
    const value = data[field.key];
    const name = `「${field.label}」`;
    if (isGroup(c)) {
      if (value === undefined) {
        if (submit && (field.required || (field.minRows ?? 0) > 0)) {
          report(
            field.key,
            field.key,
            field.required ? `请填写「${field.label}」` : `${name}至少需要 ${field.minRows} 行`,
            'hard',
          );
        }
        checkRules(c, scope, field.key);
        continue;
      }
      if (accepted(field, value)) {
        checkRules(c, scope, field.key);
        continue;
      }
      if (!Array.isArray(value)) {
        report(field.key, field.key, `${name}须为表格行的列表`, 'hard');
        continue;
      }
      if (submit && field.minRows !== undefined && value.length < field.minRows) {
        report(field.key, field.key, `${name}至少需要 ${field.minRows} 行`, 'hard');
      }
      if (field.maxRows !== undefined && value.length > field.maxRows) {
        report(field.key, field.key, `${name}最多 ${field.maxRows} 行`, 'hard');
      }
      const hiddenByRow = ev.hiddenCells.get(field.key);
      const rows: unknown[] = [];
      value.forEach((row: unknown, index) => {
        const rowPath = `${field.key}.${index}`;
        if (!isPlainObject(row)) {
          report(rowPath, field.key, `${name}第 ${index + 1} 行格式不正确`, 'hard');
          rows.push(row);
          return;
        }
        const hiddenInRow = hiddenByRow?.get(index);
        const stored: Record<string, unknown> = {};
        for (const key of Object.keys(row)) {
          const col = c.columns.find((x) => x.field.key === key);
          if (col === undefined || !col.holdsData) {
            report(
              `${rowPath}.${key}`,
              field.key,
              col === undefined ? `未知字段 ${key}` : `「${col.field.label}」不能填写数据`,
              'hard',
            );
            continue;
          }
          if (hiddenInRow?.has(key) || isBlankValue(row[key])) continue;
          stored[key] = row[key];
        }
        rows.push(stored);
        const rs: LogicScope = {
          ...scope,
          get: (key, code) =>
            c.columnKeys.has(key) ? (hasOwn(stored, key) ? stored[key] : null) : scope.get(key, code),
        };
        for (const col of c.columns) {
          if (!col.holdsData || hiddenInRow?.has(col.field.key)) continue;
          const cellPath = `${rowPath}.${col.field.key}`;
          const cell = stored[col.field.key];
          if (cell === undefined) {
            if (submit && col.field.required && col.field.type !== 'calc') {
              report(cellPath, col.field.key, `请填写「${col.field.label}」`, 'hard');
            }
          } else if (!accepted(col.field, cell)) {
            checkValue(col, cell, cellPath, ctx.dictionaryHas, today, report);
          }
          checkRules(col, rs, cellPath);
        }
      });
      data[field.key] = rows;
      checkRules(c, scope, field.key);
      continue;
    }
    if (value === undefined) {
      if (submit && field.required && field.type !== 'calc')
        report(field.key, field.key, `请填写「${field.label}」`, 'hard');
    } else if (!accepted(field, value)) {
      checkValue(c, value, field.key, ctx.dictionaryHas, today, report);
    }
    checkRules(c, scope, field.key);
  }

  // Deterministic key order: the form's field order.
  const ordered: Record<string, unknown> = {};
  for (const c of compiled.fields) if (hasOwn(data, c.field.key)) ordered[c.field.key] = data[c.field.key];
  return { valid: !issues.some((i) => i.level === 'hard'), issues, data: ordered };
}
