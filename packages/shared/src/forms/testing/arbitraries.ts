import fc from 'fast-check';
import type {
  AnyField,
  Definition,
  FieldDefinition,
  FieldType,
  FormDefinition,
  GroupColumn,
  ValidationLevel,
} from '../definition';
import { DEFAULT_MISSING_CODES, FIELD_TYPES, LAYOUT_FIELD_TYPES } from '../definition';
import { LOGIC_FUNCTIONS, printLogic, type BinaryOperator, type LogicNode } from '../logic';

/**
 * fast-check generators for the form engine's property tests (and the server's "web and server agree" test): random
 * valid definitions (every field type, show-if / formula / rule expressions built from the grammar over existing
 * keys) and random records (valid ones, ones with one value out of range, and anything at all).
 *
 * Dates in generated records and definitions lie between 2000 and 2030; pass `ARBITRARY_TODAY` as `today` to the
 * engine so that 'today' bounds are deterministic.
 */

export const ARBITRARY_TODAY = '2026-03-15';

// ---------------------------------------------------------------------------------------------------------------
// Expressions: abstract trees whose references are slots, instantiated over the keys available at a place.

export type ExprSpec =
  | { t: 'num'; v: number }
  | { t: 'str'; v: string }
  | { t: 'bool'; v: boolean }
  | { t: 'ref'; slot: number; code: number | null }
  | { t: 'un'; op: 'not' | '-'; a: ExprSpec }
  | { t: 'bin'; op: BinaryOperator; a: ExprSpec; b: ExprSpec }
  | { t: 'call'; name: string; args: ExprSpec[] };

const BINARY_OPS: BinaryOperator[] = ['or', 'and', '=', '!=', '<', '<=', '>', '>=', '+', '-', '*', '/', '^'];
const FUNCTIONS = Object.entries(LOGIC_FUNCTIONS).map(([name, spec]) => ({
  name,
  min: spec.min,
  max: Math.min(spec.max, spec.min + 3),
}));

const numberLiteral = fc.oneof(
  fc.integer({ min: 0, max: 1000 }),
  fc.double({ min: 0, max: 1e6, noNaN: true, noDefaultInfinity: true }).map((n) => Math.abs(n)),
);

const leafSpec: fc.Arbitrary<ExprSpec> = fc.oneof(
  numberLiteral.map((v): ExprSpec => ({ t: 'num', v })),
  fc
    .oneof(fc.string({ maxLength: 6 }), fc.constantFrom('1', '0', '2', 'today', 'y', 'd', '2020-01-01'))
    .map((v): ExprSpec => ({ t: 'str', v })),
  fc.boolean().map((v): ExprSpec => ({ t: 'bool', v })),
  fc.record({
    t: fc.constant('ref' as const),
    slot: fc.nat({ max: 1000 }),
    code: fc.option(fc.nat({ max: 20 }), { nil: null }),
  }),
  fc.record({ t: fc.constant('ref' as const), slot: fc.nat({ max: 1000 }), code: fc.constant(null) }),
);

/** Random expression trees of the whole grammar (depth-bounded). */
export const exprSpecArb: fc.Arbitrary<ExprSpec> = fc.letrec<{
  expr: ExprSpec;
  un: ExprSpec;
  bin: ExprSpec;
  call: ExprSpec;
}>((tie) => ({
  expr: fc.oneof({ maxDepth: 4, depthIdentifier: 'logic' }, leafSpec, tie('un'), tie('bin'), tie('call')),
  un: fc.record({ t: fc.constant('un' as const), op: fc.constantFrom('not' as const, '-' as const), a: tie('expr') }),
  bin: fc.record({
    t: fc.constant('bin' as const),
    op: fc.constantFrom(...BINARY_OPS),
    a: tie('expr'),
    b: tie('expr'),
  }),
  call: fc
    .record({ fn: fc.constantFrom(...FUNCTIONS), args: fc.array(tie('expr'), { maxLength: 6 }) })
    .map(({ fn, args }): ExprSpec => {
      const filled = [...args];
      while (filled.length < fn.min) filled.push({ t: 'num', v: filled.length + 1 });
      return { t: 'call', name: fn.name, args: filled.slice(0, fn.max) };
    }),
})).expr;

/** Simple comparisons of one field (what a designer usually writes): `[sex] = '1'`, `[age] >= 18`, `[x(2)] = 1`. */
const simpleConditionSpec: fc.Arbitrary<ExprSpec> = fc
  .record({
    slot: fc.nat({ max: 1000 }),
    code: fc.option(fc.nat({ max: 20 }), { nil: null }),
    op: fc.constantFrom<BinaryOperator>('=', '!=', '>', '<=', '>='),
    value: fc.oneof(
      fc.integer({ min: 0, max: 100 }).map((v): ExprSpec => ({ t: 'num', v })),
      fc.constantFrom('1', '0', '2', '').map((v): ExprSpec => ({ t: 'str', v })),
    ),
  })
  .map(({ slot, code, op, value }): ExprSpec => ({ t: 'bin', op, a: { t: 'ref', slot, code }, b: value }));

export const conditionSpecArb: fc.Arbitrary<ExprSpec> = fc.oneof(
  { arbitrary: simpleConditionSpec, weight: 3 },
  {
    arbitrary: fc
      .tuple(simpleConditionSpec, simpleConditionSpec, fc.constantFrom<BinaryOperator>('and', 'or'))
      .map(([a, b, op]): ExprSpec => ({ t: 'bin', op, a, b })),
    weight: 1,
  },
  { arbitrary: exprSpecArb, weight: 1 },
);

/** Arithmetic over numeric fields (calculated fields). */
export const formulaSpecArb: fc.Arbitrary<ExprSpec> = fc.oneof(
  {
    arbitrary: fc
      .tuple(
        fc.nat({ max: 1000 }),
        fc.nat({ max: 1000 }),
        fc.constantFrom<BinaryOperator>('+', '-', '*', '/'),
        fc.integer({ min: 1, max: 10 }),
      )
      .map(([a, b, op, k]): ExprSpec => ({
        t: 'bin',
        op: '+',
        a: { t: 'bin', op, a: { t: 'ref', slot: a, code: null }, b: { t: 'ref', slot: b, code: null } },
        b: { t: 'num', v: k },
      })),
    weight: 3,
  },
  { arbitrary: exprSpecArb, weight: 1 },
);

/** What an expression at some place may refer to. */
const DATEDIFF_UNITS = ['y', 'M', 'd', 'h', 'm', 's'];

export type RefTarget = { key: string; codes: readonly string[] };

/** Instantiates an expression over the keys it may use (no key: references become numbers). */
export function instantiateExpr(spec: ExprSpec, targets: readonly RefTarget[]): LogicNode {
  const go = (s: ExprSpec): LogicNode => {
    switch (s.t) {
      case 'num':
        return { kind: 'number', value: s.v, pos: 0 };
      case 'str':
        return { kind: 'string', value: s.v, pos: 0 };
      case 'bool':
        return { kind: 'boolean', value: s.v, pos: 0 };
      case 'ref': {
        const target = targets.length === 0 ? undefined : targets[s.slot % targets.length];
        if (target === undefined) return { kind: 'number', value: s.slot, pos: 0 };
        const code =
          s.code === null || target.codes.length === 0 ? undefined : target.codes[s.code % target.codes.length];
        return code === undefined
          ? { kind: 'ref', key: target.key, pos: 0 }
          : { kind: 'ref', key: target.key, code, pos: 0 };
      }
      case 'un':
        return { kind: 'unary', op: s.op, arg: go(s.a), pos: 0 };
      case 'bin':
        return { kind: 'binary', op: s.op, left: go(s.a), right: go(s.b), pos: 0 };
      case 'call': {
        const args = s.args.map(go);
        // A literal datediff unit must be one of the units (checkDefinition refuses others).
        const unit = args[2];
        if (s.name === 'datediff' && unit?.kind === 'string' && !DATEDIFF_UNITS.includes(unit.value)) {
          args[2] = { kind: 'string', value: 'd', pos: 0 };
        }
        return { kind: 'call', name: s.name, args, pos: 0 };
      }
    }
  };
  return go(spec);
}

/** Random ASTs over the given keys (for parse/print round trips and evaluation totality). */
export function logicAstArb(keys: readonly string[] = ['a', 'b', 'c']): fc.Arbitrary<LogicNode> {
  const targets = keys.map((key) => ({ key, codes: ['1', '2', 'x_1'] }));
  return exprSpecArb.map((spec) => instantiateExpr(spec, targets));
}

// ---------------------------------------------------------------------------------------------------------------
// Definitions

const DATA_TYPES: FieldType[] = FIELD_TYPES.filter((t) => t !== 'group' && !LAYOUT_FIELD_TYPES.includes(t));
const COLUMN_TYPES: FieldType[] = [...DATA_TYPES, 'section', 'description'];

type FieldSkeleton = {
  type: FieldType;
  label: string;
  required: boolean;
  showIf: ExprSpec | null;
  rules: { expr: ExprSpec; level: ValidationLevel }[];
  optionCount: number;
  missing: boolean;
  range: { min: number; span: number } | null;
  rangeLevel: ValidationLevel | null;
  precision: number | null;
  normal: boolean;
  maxLength: number | null;
  pattern: ValidationLevel | null;
  dateRange: { min: string; max: string } | null;
  formula: ExprSpec;
  rows: { min: number; extra: number } | null;
  maxFiles: number | null;
  flags: { phi: boolean; listColumn: boolean; help: boolean };
};

export type DefinitionArbOptions = {
  /** Cross-field rules on fields (default true). A record built valid may break a random rule. */
  rules?: boolean;
  /** Show-if conditions (default true). */
  showIf?: boolean;
  maxFieldsPerForm?: number;
};

function fieldSkeletonArb(types: FieldType[], opts: DefinitionArbOptions): fc.Arbitrary<FieldSkeleton> {
  return fc.record({
    type: fc.constantFrom(...types),
    label: fc.constantFrom('体重', '身高', '收缩压', '诊断', '用药', '备注', 'Age', '出生日期', '吸烟'),
    required: fc.boolean(),
    showIf: opts.showIf === false ? fc.constant(null) : fc.option(conditionSpecArb, { nil: null, freq: 3 }),
    rules:
      opts.rules === false
        ? fc.constant([])
        : fc.array(fc.record({ expr: conditionSpecArb, level: fc.constantFrom<ValidationLevel>('hard', 'soft') }), {
            maxLength: 1,
          }),
    optionCount: fc.integer({ min: 1, max: 5 }),
    missing: fc.boolean(),
    range: fc.option(fc.record({ min: fc.integer({ min: -50, max: 100 }), span: fc.integer({ min: 0, max: 300 }) }), {
      nil: null,
    }),
    rangeLevel: fc.option(fc.constantFrom<ValidationLevel>('hard', 'soft'), { nil: null }),
    precision: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
    normal: fc.boolean(),
    maxLength: fc.option(fc.integer({ min: 5, max: 40 }), { nil: null }),
    pattern: fc.option(fc.constantFrom<ValidationLevel>('hard', 'soft'), { nil: null, freq: 4 }),
    dateRange: fc.option(
      fc.constantFrom(
        { min: '2000-01-01', max: '2030-12-31' },
        { min: '2000-01-01', max: 'today' },
        { min: '2010-06-15', max: '2020-06-15' },
      ),
      { nil: null },
    ),
    formula: formulaSpecArb,
    rows: fc.option(fc.record({ min: fc.integer({ min: 0, max: 2 }), extra: fc.integer({ min: 0, max: 3 }) }), {
      nil: null,
    }),
    maxFiles: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
    flags: fc.record({ phi: fc.boolean(), listColumn: fc.boolean(), help: fc.boolean() }),
  });
}

type GroupSkeleton = FieldSkeleton & { columns: FieldSkeleton[] };

function formFieldArb(opts: DefinitionArbOptions): fc.Arbitrary<GroupSkeleton> {
  return fc
    .tuple(
      fieldSkeletonArb([...COLUMN_TYPES, 'group'], opts),
      fc.array(fieldSkeletonArb(COLUMN_TYPES, opts), { minLength: 1, maxLength: 4 }),
    )
    .map(([field, columns]) => ({ ...field, columns: field.type === 'group' ? columns : [] }));
}

type DefinitionSkeleton = {
  title: string;
  forms: { title: string; followUp: boolean; repeating: boolean; fields: GroupSkeleton[] }[];
}[];

const OPTION_LABELS = ['男', '女', '未知', '其他', '轻度', '中度', '重度'];
const PATTERN_REGEX = '[a-z0-9]+';

function optionsFor(count: number) {
  return Array.from({ length: count }, (_, i) => ({ code: String(i + 1), label: OPTION_LABELS[i] ?? `选项${i + 1}` }));
}

function codesOf(field: AnyField): string[] {
  if (field.type === 'yesno') return ['1', '0'];
  if (field.type === 'radio' || field.type === 'checkbox') return (field.options ?? []).map((o) => o.code);
  return [];
}

/** Builds the field from its skeleton (keys, expressions and cross references are filled in afterwards). */
function buildField(s: FieldSkeleton, key: string): AnyField {
  const field: AnyField = { key, label: s.label, type: s.type };
  if (LAYOUT_FIELD_TYPES.includes(s.type)) {
    if (s.flags.help) field.help = '说明';
    return field;
  }
  if (s.type !== 'calc' && s.type !== 'group' && s.required) field.required = true;
  if (s.flags.phi) field.phi = true;
  if (s.flags.listColumn) field.listColumn = true;
  if (s.flags.help) field.help = '帮助';
  if (s.missing && s.type !== 'calc') field.missingCodes = ['UNK', 'NA'];
  switch (s.type) {
    case 'text':
    case 'textarea':
      if (s.maxLength !== null) field.maxLength = s.maxLength;
      if (s.pattern !== null)
        field.pattern = { regex: PATTERN_REGEX, message: '只能填写小写字母和数字', level: s.pattern };
      break;
    case 'integer':
    case 'decimal':
      if (s.range !== null) {
        field.min = s.range.min;
        field.max = s.range.min + s.range.span;
        if (s.rangeLevel !== null) field.rangeLevel = s.rangeLevel;
      }
      if (s.type === 'decimal' && s.precision !== null) field.precision = s.precision;
      if (s.normal) {
        field.normalLow = 10;
        field.normalHigh = 20;
      }
      field.unit = s.type === 'integer' ? 'mmHg' : 'kg';
      break;
    case 'calc':
      if (s.precision !== null) field.precision = s.precision;
      break;
    case 'date':
    case 'datetime':
    case 'partialDate':
      if (s.dateRange !== null) {
        field.minDate = s.dateRange.min;
        field.maxDate = s.dateRange.max;
        if (s.rangeLevel !== null) field.rangeLevel = s.rangeLevel;
      }
      break;
    case 'radio':
    case 'checkbox':
      field.options = optionsFor(s.optionCount);
      break;
    case 'dict':
      field.dictCode = 'gender';
      break;
    case 'file':
      field.accept = 'any';
      if (s.maxFiles !== null) field.maxFiles = s.maxFiles;
      break;
    default:
      break;
  }
  return field;
}

function buildDefinition(skeleton: DefinitionSkeleton): Definition {
  let counter = 0;
  const nextKey = (prefix: string) => `${prefix}${counter++}`;
  type Pending = { field: AnyField; s: FieldSkeleton; siblings: AnyField[] | null; index: number };
  const pending: Pending[] = [];
  const topLevel: AnyField[] = [];
  const categories = skeleton.map((c) => ({
    key: nextKey('cat_'),
    title: c.title,
    forms: c.forms.map((f): FormDefinition => {
      const form: FormDefinition = { key: nextKey('form_'), title: f.title, fields: [] };
      if (f.followUp) form.followUp = true;
      if (f.repeating) form.repeating = true;
      for (const s of f.fields) {
        const field = buildField(s, nextKey('f_')) as FieldDefinition;
        pending.push({ field, s, siblings: null, index: topLevel.length });
        topLevel.push(field);
        if (s.type === 'group') {
          const columns: GroupColumn[] = [];
          s.columns.forEach((cs, ci) => {
            const column = buildField(cs, nextKey('c_')) as GroupColumn;
            pending.push({ field: column, s: cs, siblings: columns, index: ci });
            columns.push(column);
          });
          field.fields = columns;
          const rows = s.rows;
          if (rows !== null) {
            field.minRows = rows.min;
            field.maxRows = Math.max(1, rows.min + rows.extra);
          }
        }
        form.fields.push(field);
      }
      return form;
    }),
  }));

  const dataTargets = (fields: AnyField[]): RefTarget[] =>
    fields.filter((f) => !LAYOUT_FIELD_TYPES.includes(f.type)).map((f) => ({ key: f.key, codes: codesOf(f) }));
  const allTop = dataTargets(topLevel);
  for (const { field, s, siblings, index } of pending) {
    if (LAYOUT_FIELD_TYPES.includes(field.type)) continue;
    // Show-ifs and formulas refer only to fields before them (no circle); rules to any field.
    const earlier =
      siblings === null ? dataTargets(topLevel.slice(0, index)) : [...dataTargets(siblings.slice(0, index)), ...allTop];
    const anywhere = siblings === null ? allTop : [...dataTargets(siblings), ...allTop];
    if (s.showIf !== null) field.showIf = printLogic(instantiateExpr(s.showIf, earlier));
    if (s.rules.length > 0) {
      field.rules = s.rules.map((r) => ({
        expr: printLogic(instantiateExpr(r.expr, anywhere)),
        message: `「${field.label}」不符合规则`,
        level: r.level,
      }));
    }
    if (field.type === 'calc') field.formula = printLogic(instantiateExpr(s.formula, earlier));
  }
  return { categories, missingCodes: DEFAULT_MISSING_CODES.map((m) => ({ ...m })) };
}

/** Random definitions that `checkDefinition` accepts: every field type, logic over existing keys, no calc cycle. */
export function definitionArb(opts: DefinitionArbOptions = {}): fc.Arbitrary<Definition> {
  const form = fc.record({
    title: fc.constantFrom('基线', '随访', '实验室检查', '用药', '结局'),
    followUp: fc.boolean(),
    repeating: fc.boolean(),
    fields: fc.array(formFieldArb(opts), { minLength: 1, maxLength: opts.maxFieldsPerForm ?? 10 }),
  });
  const category = fc.record({
    title: fc.constantFrom('基本信息', '临床资料', '随访'),
    forms: fc.array(form, { minLength: 1, maxLength: 2 }),
  });
  return fc.array(category, { minLength: 1, maxLength: 2 }).map(buildDefinition);
}

/** A random definition together with one of its forms. */
export function definitionWithFormArb(
  opts: DefinitionArbOptions = {},
): fc.Arbitrary<{ definition: Definition; form: FormDefinition }> {
  return definitionArb(opts).chain((definition) => {
    const forms = definition.categories.flatMap((c) => c.forms);
    return fc.constantFrom(...forms).map((form) => ({ definition, form }));
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Records

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

const DAY = 86400000;

function isoDay(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

function boundMs(value: string | undefined, fallback: string, today: string): number {
  const text = value === undefined ? fallback : value === 'today' ? today : value;
  return Date.parse(`${text.slice(0, 10)}T00:00:00Z`);
}

/** A value the engine accepts for the field (never blank; a missing-data code sometimes when the field allows one). */
export function validValueArb(field: AnyField, today = ARBITRARY_TODAY): fc.Arbitrary<unknown> {
  const value = plainValidValueArb(field, today);
  const codes = field.missingCodes ?? [];
  if (codes.length === 0 || field.type === 'group') return value;
  return fc.oneof({ arbitrary: value, weight: 5 }, { arbitrary: fc.constantFrom(...codes), weight: 1 });
}

function plainValidValueArb(field: AnyField, today: string): fc.Arbitrary<unknown> {
  switch (field.type) {
    case 'text':
    case 'textarea': {
      const max = Math.min(field.maxLength ?? 20, 20);
      if (field.pattern !== undefined) {
        return fc.string({ unit: fc.constantFrom(...'abcxyz0129'.split('')), minLength: 1, maxLength: max });
      }
      return fc
        .string({ unit: fc.constantFrom(...'ab 体重x-1'.split('')), minLength: 1, maxLength: max })
        .filter((s) => s !== 'NA' && s !== 'UNK');
    }
    case 'richtext':
      return fc.constantFrom('<p>记录</p>', '<p><strong>重要</strong></p>');
    case 'integer':
      return fc.integer({ min: Math.ceil(field.min ?? -1000), max: Math.floor(field.max ?? 1000) });
    case 'decimal': {
      const p = field.precision ?? 2;
      const f = 10 ** p;
      return fc
        .integer({ min: Math.ceil((field.min ?? -1000) * f), max: Math.floor((field.max ?? 1000) * f) })
        .map((n) => n / f);
    }
    case 'date':
    case 'datetime':
    case 'partialDate': {
      const lo = boundMs(field.minDate, '2000-01-01', today);
      const hi = boundMs(field.maxDate, '2030-12-31', today);
      const days = Math.max(0, Math.floor((hi - lo) / DAY));
      const day = fc.integer({ min: 0, max: days }).map((d) => isoDay(lo + d * DAY));
      if (field.type === 'date') return day;
      if (field.type === 'datetime') {
        return fc
          .tuple(day, fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
          .map(([d, h, m]) => `${d}T${pad(h)}:${pad(m)}`);
      }
      // A partial date is checked by its span: only a full day is sure to lie inside a narrow range.
      return field.minDate === undefined && field.maxDate === undefined
        ? fc.oneof(
            day,
            day.map((d) => d.slice(0, 7)),
            day.map((d) => d.slice(0, 4)),
          )
        : day;
    }
    case 'radio':
    case 'yesno':
      return fc.constantFrom(...codesOf(field));
    case 'checkbox':
      return fc.subarray(codesOf(field), { minLength: 1 });
    case 'dict':
      return fc.constantFrom('1', '2', 'M', 'F');
    case 'file':
      return fc.array(fc.record({ fileId: fc.uuid(), name: fc.constantFrom('化验单.png', 'report.pdf') }), {
        minLength: 1,
        maxLength: Math.min(field.maxFiles ?? 3, 3),
      });
    case 'group': {
      const columns = ('fields' in field ? field.fields : undefined) ?? [];
      const min = Math.max(1, field.minRows ?? 0);
      const max = Math.max(min, Math.min(field.maxRows ?? 3, 3));
      return fc.array(rowArb(columns, today), { minLength: min, maxLength: max });
    }
    default:
      return fc.constant(null);
  }
}

function rowArb(columns: readonly GroupColumn[], today: string): fc.Arbitrary<Record<string, unknown>> {
  const data = columns.filter((c) => !LAYOUT_FIELD_TYPES.includes(c.type) && c.type !== 'calc');
  return fc.tuple(...data.map((c) => validValueArb(c, today))).map((values) => {
    const row: Record<string, unknown> = {};
    data.forEach((c, i) => {
      row[c.key] = values[i];
    });
    return row;
  });
}

/**
 * A record every field of which holds a valid value (calcs left to the engine). It passes `validateRecord` in
 * 'submit' mode when the form has no cross-field rules (`definitionArb({ rules: false })`).
 */
export function validRecordArb(form: FormDefinition, today = ARBITRARY_TODAY): fc.Arbitrary<Record<string, unknown>> {
  const data = form.fields.filter((f) => !LAYOUT_FIELD_TYPES.includes(f.type) && f.type !== 'calc');
  if (data.length === 0) return fc.constant({});
  return fc.tuple(...data.map((f) => validValueArb(f, today))).map((values) => {
    const record: Record<string, unknown> = {};
    data.forEach((f, i) => {
      record[f.key] = values[i];
    });
    return record;
  });
}

/** Anything a client might send for a field: valid values, blanks, wrong types and junk JSON. */
export function anyValueArb(field: AnyField, today = ARBITRARY_TODAY): fc.Arbitrary<unknown> {
  return fc.oneof(
    { arbitrary: validValueArb(field, today), weight: 4 },
    {
      arbitrary: fc.constantFrom(null, '', [], 'UNK', 'NA', 0, -1, 1e9, 3.14159, true, '1', '2020-02-30', ['9']),
      weight: 2,
    },
    { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 1 },
  );
}

/** Any record: per field a valid value, a blank, a wrong type or junk; sometimes a value sent for a calc, an unknown key. */
export function anyRecordArb(form: FormDefinition, today = ARBITRARY_TODAY): fc.Arbitrary<Record<string, unknown>> {
  const entries = form.fields.map((f) =>
    fc.option(
      anyValueArb(f, today).map((v) => [f.key, v] as const),
      { nil: undefined, freq: 4 },
    ),
  );
  return fc
    .tuple(fc.tuple(...entries), fc.option(fc.constantFrom('zz_unknown', 'note'), { nil: undefined, freq: 5 }))
    .map(([pairs, unknown]) => {
      const record: Record<string, unknown> = {};
      for (const pair of pairs) if (pair !== undefined) record[pair[0]] = pair[1];
      if (unknown !== undefined) record[unknown] = 'x';
      return record;
    });
}
