import type { RecordIssue } from '../contracts/form-definition';
import { compilePattern, patternEngineGeneration, PATTERN_VALUE_MAX_LENGTH, type CompiledPattern } from './pattern';
import type { AnyField, FieldDefinition, FormDefinition, GroupColumn, ValidationLevel } from './definition';
import { LAYOUT_FIELD_TYPES, YES_NO_OPTIONS } from './field-types';
import { parseLogic, type LogicNode } from './logic';
import { evaluateLogic } from './logic-eval';
import { isTruthy, parseDateValue, roundTo, toNumber, type LogicScope } from './logic-values';
import { shanghaiToday } from '../dates';
import { dependencyOrder } from './graph';
import { isAbnormal, isBlankValue, sameValue } from './values';

export { isAbnormal, isBlankValue, sameValue };

/**
 * The record engine: what the web renderer and the server both run on one form's data. `evaluateForm` computes the
 * calculated fields and which fields are hidden; `validateRecord` adds the verdict (types, required, ranges,
 * patterns, cross-field rules) and the data as it would be stored (calcs computed, hidden fields cleared).
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
// Compilation (once per form object)

type Compiled<F extends AnyField> = {
  field: F;
  showIf: LogicNode | null;
  formula: LogicNode | null;
  rules: { node: LogicNode; message: string; level: ValidationLevel }[];
  /** `test` null: no pattern engine is loaded (the web, before its dynamic import): the value cannot be checked. */
  pattern: { test: CompiledPattern | null; message: string; level: ValidationLevel } | null;
  holdsData: boolean;
};

type CompiledGroup = Compiled<FieldDefinition> & {
  columns: Compiled<GroupColumn>[];
  columnKeys: ReadonlySet<string>;
  /** The columns in dependency order (show-if and formula references among siblings). */
  order: Step[];
  columnByKey: ReadonlyMap<string, Compiled<GroupColumn>>;
};

type CompiledForm = {
  fields: (Compiled<FieldDefinition> | CompiledGroup)[];
  byKey: ReadonlyMap<string, Compiled<FieldDefinition> | CompiledGroup>;
  /** The form's own fields in dependency order (show-if and formula references). */
  order: Step[];
  /** The missing-data codes the form's fields accept (read as blank when the context names none). */
  fieldMissingCodes: ReadonlySet<string>;
  /** patternEngineGeneration() when compiled: a form compiled before the engine came is compiled again. */
  engineGeneration: number;
};

const cache = new WeakMap<FormDefinition, CompiledForm>();

function parseOrNull(src: string | undefined): LogicNode | null {
  if (src === undefined || src.trim() === '') return null;
  const parsed = parseLogic(src);
  return parsed.ok ? parsed.ast : null;
}

function compileField<F extends AnyField>(field: F): Compiled<F> {
  let pattern: Compiled<F>['pattern'] = null;
  if (field.pattern !== undefined) {
    // A pattern the engine refuses (checkDefinition refuses it too, but a version published before may hold one) is
    // never run: the field is then checked as if it had no format rule.
    const compiled = compilePattern(field.pattern.regex);
    const level = field.pattern.level ?? 'hard';
    if (compiled.ok) pattern = { test: compiled.pattern, message: field.pattern.message, level };
    // Without an engine the check is not skipped: the value is reported as not checked (never another engine's verdict).
    else if (compiled.unavailable === true) pattern = { test: null, message: field.pattern.message, level };
  }
  return {
    field,
    showIf: parseOrNull(field.showIf),
    formula: field.type === 'calc' ? parseOrNull(field.formula) : null,
    rules: (field.rules ?? []).flatMap((rule) => {
      const node = parseOrNull(rule.expr);
      return node === null ? [] : [{ node, message: rule.message, level: rule.level ?? 'hard' }];
    }),
    pattern,
    holdsData: !LAYOUT_FIELD_TYPES.includes(field.type),
  };
}

function refKeys(node: LogicNode | null, out: Set<string>): Set<string> {
  if (node === null) return out;
  if (node.kind === 'ref') out.add(node.key);
  else if (node.kind === 'unary') refKeys(node.arg, out);
  else if (node.kind === 'binary') {
    refKeys(node.left, out);
    refKeys(node.right, out);
  } else if (node.kind === 'call') for (const arg of node.args) refKeys(arg, out);
  return out;
}

/** What deciding a field's visibility and value reads: its show-if and, for a calc, its formula. */
function fieldDeps(c: Compiled<AnyField>): string[] {
  return [...refKeys(c.formula, refKeys(c.showIf, new Set()))];
}

/** One step of the evaluation: a field, or fields that depend on each other in a circle. */
type Step = { members: Compiled<AnyField>[]; cyclic: boolean };

function orderOf(fields: Compiled<AnyField>[]): Step[] {
  const byKey = new Map(fields.map((f) => [f.field.key, f]));
  return dependencyOrder(
    fields.map((f) => f.field.key),
    (key) => {
      const c = byKey.get(key);
      return c === undefined ? [] : fieldDeps(c);
    },
  ).map((component) => ({
    members: component.nodes.flatMap((key) => {
      const c = byKey.get(key);
      return c === undefined ? [] : [c];
    }),
    cyclic: component.cyclic,
  }));
}

function compileForm(form: FormDefinition): CompiledForm {
  const hit = cache.get(form);
  if (hit !== undefined && hit.engineGeneration === patternEngineGeneration()) return hit;
  const engineGeneration = patternEngineGeneration();
  const fields = form.fields.map((field): Compiled<FieldDefinition> | CompiledGroup => {
    const compiled = compileField(field);
    if (field.type !== 'group') return compiled;
    const columns = (field.fields ?? []).map((c) => compileField(c));
    return {
      ...compiled,
      columns,
      columnKeys: new Set(columns.map((c) => c.field.key)),
      columnByKey: new Map(columns.map((c) => [c.field.key, c])),
      order: orderOf(columns),
    };
  });
  const result: CompiledForm = {
    fields,
    byKey: new Map(fields.map((f) => [f.field.key, f])),
    order: orderOf(fields),
    fieldMissingCodes: new Set(
      fields.flatMap((f) => [
        ...(f.field.missingCodes ?? []),
        ...('columns' in f ? f.columns.flatMap((c) => c.field.missingCodes ?? []) : []),
      ]),
    ),
    engineGeneration,
  };
  cache.set(form, result);
  return result;
}

function isGroup(c: Compiled<FieldDefinition> | CompiledGroup): c is CompiledGroup {
  return 'columns' in c;
}

// ---------------------------------------------------------------------------------------------------------------
// Helpers

const hasOwn = (obj: object, key: string) => Object.prototype.hasOwnProperty.call(obj, key);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

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

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

function isDate(value: string): boolean {
  return DATE_ONLY.test(value) && parseDateValue(value) !== null;
}

function isDateTime(value: string): boolean {
  return DATETIME.test(value) && parseDateValue(value) !== null;
}

function isPartialDate(value: string): boolean {
  if (/^\d{4}$/.test(value)) return true;
  if (/^\d{4}-\d{2}$/.test(value)) {
    const month = Number(value.slice(5));
    return month >= 1 && month <= 12;
  }
  return isDate(value);
}

/** Earliest and latest day a (partial) date or datetime may stand for, as `YYYY-MM-DD`. */
function dateSpan(value: string): [string, string] {
  if (value.length === 4) return [`${value}-01-01`, `${value}-12-31`];
  if (value.length === 7) return [`${value}-01`, `${value}-31`];
  const day = value.slice(0, 10);
  return [day, day];
}

function formatNumber(n: number): string {
  return String(n);
}

type Sink = (path: string, fieldKey: string, message: string, level: ValidationLevel) => void;

/** Checks one visible, non-blank value of a field (not its rules, not required). */
function checkValue(
  c: Compiled<AnyField>,
  value: unknown,
  path: string,
  ctx: ValidateContext,
  today: string,
  report: Sink,
): void {
  const { field } = c;
  const name = `「${field.label}」`;
  const hard = (message: string) => report(path, field.key, message, 'hard');
  const rangeLevel = field.rangeLevel ?? 'hard';
  const unit = field.unit !== undefined && field.unit !== '' ? ` ${field.unit}` : '';

  switch (field.type) {
    case 'text':
    case 'textarea':
    case 'richtext': {
      if (typeof value !== 'string') return hard(`${name}须为文本`);
      if (field.maxLength !== undefined && value.length > field.maxLength && [...value].length > field.maxLength) {
        hard(`${name}不能超过 ${field.maxLength} 个字符`);
      }
      if (c.pattern !== null && field.type !== 'richtext') {
        // The pattern's work is bounded: a longer value is not matched and fails the format check.
        if (value.length > PATTERN_VALUE_MAX_LENGTH) {
          report(path, field.key, `${name}有格式要求，不能超过 ${PATTERN_VALUE_MAX_LENGTH} 个字符`, c.pattern.level);
        } else if (c.pattern.test === null) {
          report(path, field.key, `${name}的格式暂无法检查：格式校验组件未加载，请稍候或刷新页面重试`, c.pattern.level);
        } else if (!c.pattern.test.matches(value)) {
          report(path, field.key, c.pattern.message, c.pattern.level);
        }
      }
      return;
    }
    case 'integer':
    case 'decimal':
    case 'calc': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return hard(`${name}须为数字`);
      if (field.type === 'integer' && !Number.isInteger(value)) return hard(`${name}须为整数`);
      if (field.type === 'decimal' && field.precision !== undefined && roundTo(value, field.precision) !== value) {
        return hard(field.precision === 0 ? `${name}须为整数` : `${name}最多保留 ${field.precision} 位小数`);
      }
      if (field.min !== undefined && value < field.min) {
        report(path, field.key, `${name}不能小于 ${formatNumber(field.min)}${unit}`, rangeLevel);
      } else if (field.max !== undefined && value > field.max) {
        report(path, field.key, `${name}不能大于 ${formatNumber(field.max)}${unit}`, rangeLevel);
      }
      return;
    }
    case 'date':
    case 'datetime':
    case 'partialDate': {
      const ok =
        typeof value === 'string' &&
        (field.type === 'date' ? isDate(value) : field.type === 'datetime' ? isDateTime(value) : isPartialDate(value));
      if (!ok) {
        const format =
          field.type === 'date'
            ? 'YYYY-MM-DD'
            : field.type === 'datetime'
              ? 'YYYY-MM-DDTHH:mm'
              : 'YYYY、YYYY-MM 或 YYYY-MM-DD';
        return hard(`${name}须为有效日期（${format}）`);
      }
      const [earliest, latest] = dateSpan(value);
      const bound = (b: string) => (b === 'today' ? today : b.slice(0, 10));
      const label = (b: string) => (b === 'today' ? '今天' : b);
      if (
        field.minDate !== undefined &&
        parseDateValue(bound(field.minDate)) !== null &&
        latest < bound(field.minDate)
      ) {
        report(path, field.key, `${name}不能早于${label(field.minDate)}`, rangeLevel);
      } else if (
        field.maxDate !== undefined &&
        parseDateValue(bound(field.maxDate)) !== null &&
        earliest > bound(field.maxDate)
      ) {
        report(path, field.key, `${name}不能晚于${label(field.maxDate)}`, rangeLevel);
      }
      return;
    }
    case 'radio':
    case 'yesno':
    case 'dict': {
      if (typeof value !== 'string') return hard(`${name}须为选项编码`);
      if (field.type === 'dict') {
        if (
          ctx.dictionaryHas !== undefined &&
          field.dictCode !== undefined &&
          !ctx.dictionaryHas(field.dictCode, value)
        ) {
          hard(`${name}的选项 ${value} 不在字典中`);
        }
        return;
      }
      const codes =
        field.type === 'yesno' ? YES_NO_OPTIONS.map((o) => o.code as string) : (field.options ?? []).map((o) => o.code);
      if (!codes.includes(value)) hard(`${name}没有编码为 ${value} 的选项`);
      return;
    }
    case 'checkbox': {
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return hard(`${name}须为选项编码的列表`);
      const codes = (field.options ?? []).map((o) => o.code);
      const unknown = value.filter((v: string) => !codes.includes(v));
      if (unknown.length > 0) return hard(`${name}没有编码为 ${unknown.join('、')} 的选项`);
      if (new Set(value).size !== value.length) hard(`${name}的选项重复`);
      return;
    }
    case 'file': {
      const ok =
        Array.isArray(value) &&
        value.every(
          (v) => isPlainObject(v) && typeof v.fileId === 'string' && v.fileId !== '' && typeof v.name === 'string',
        );
      if (!ok) return hard(`${name}须为已上传文件的列表`);
      if (field.maxFiles !== undefined && value.length > field.maxFiles)
        hard(`${name}最多上传 ${field.maxFiles} 个文件`);
      return;
    }
    default:
      return;
  }
}

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
            checkValue(col, cell, cellPath, ctx, today, report);
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
      checkValue(c, value, field.key, ctx, today, report);
    }
    checkRules(c, scope, field.key);
  }

  // Deterministic key order: the form's field order.
  const ordered: Record<string, unknown> = {};
  for (const c of compiled.fields) if (hasOwn(data, c.field.key)) ordered[c.field.key] = data[c.field.key];
  return { valid: !issues.some((i) => i.level === 'hard'), issues, data: ordered };
}
