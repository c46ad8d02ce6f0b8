/**
 * The record engine's compilation of a form (`record.ts` runs it): each field's show-if, formula, rules and format
 * pattern parsed once, and the fields in dependency order; cached per form object (again when the pattern engine
 * comes after it).
 */

import { compilePattern, patternEngineGeneration, type CompiledPattern } from './pattern';
import type { AnyField, FieldDefinition, FormDefinition, GroupColumn, ValidationLevel } from './definition';
import { LAYOUT_FIELD_TYPES } from './field-types';
import { parseLogic, type LogicNode } from './logic';
import { dependencyOrder } from './graph';

export type Compiled<F extends AnyField> = {
  field: F;
  showIf: LogicNode | null;
  formula: LogicNode | null;
  rules: { node: LogicNode; message: string; level: ValidationLevel }[];
  /** `test` null: no pattern engine is loaded (the web, before its dynamic import): the value cannot be checked. */
  pattern: { test: CompiledPattern | null; message: string; level: ValidationLevel } | null;
  holdsData: boolean;
};

export type CompiledGroup = Compiled<FieldDefinition> & {
  columns: Compiled<GroupColumn>[];
  columnKeys: ReadonlySet<string>;
  /** The columns in dependency order (show-if and formula references among siblings). */
  order: Step[];
  columnByKey: ReadonlyMap<string, Compiled<GroupColumn>>;
};

export type CompiledForm = {
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
export type Step = { members: Compiled<AnyField>[]; cyclic: boolean };

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

export function compileForm(form: FormDefinition): CompiledForm {
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

export function isGroup(c: Compiled<FieldDefinition> | CompiledGroup): c is CompiledGroup {
  return 'columns' in c;
}

// ---------------------------------------------------------------------------------------------------------------
// Helpers (also of record.ts and record-check.ts)

export const hasOwn = (obj: object, key: string) => Object.prototype.hasOwnProperty.call(obj, key);

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
