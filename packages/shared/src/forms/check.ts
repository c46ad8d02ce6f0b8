import type { DefinitionProblem } from '../contracts/form-definition';
import { compilePattern, PATTERN_DEFINITION_BUDGET, type PatternResult } from './pattern';
import type { AnyField, Definition, FieldDefinition, FormDefinition } from './definition';
import {
  CHOICE_FIELD_TYPES,
  FIELD_KEY_MESSAGE,
  FIELD_KEY_PATTERN,
  LAYOUT_FIELD_TYPES,
  NUMERIC_FIELD_TYPES,
  definitionSchema,
} from './definition';
import { listRefNodes, parseLogic, type LogicRef } from './logic';
import { lintLogic } from './logic-eval';
import { parseDateValue } from './logic-values';
import { describeCycle, dependencyOrder } from './graph';
import { listFormFields, listForms } from './walk';
import { PATIENT_BINDING_LABELS, attributeOf, bindingFits, bindingMismatchMessage } from './binding';

/**
 * The engine's verdict on a definition: everything the zod schema cannot see. A draft may be saved with problems;
 * publishing needs none. Each problem has the path of the property concerned (`categories.0.forms.1.fields.3.showIf`)
 * and, for a logic expression, the 0-based position of the error in it.
 */

export type CheckOptions = {
  /** A sub-project's parent definition: its keys are taken, its fields may be referenced. */
  parent?: Definition;
  /** Codes of the existing dictionaries (`sys-field-dict-option`): dict fields must name one of them. */
  dictCodes?: ReadonlySet<string>;
};

const DATE_TYPES = ['date', 'datetime'];

export function fieldName(field: { key: string; label: string }): string {
  return `「${field.label}」(${field.key})`;
}

type FieldInfo = {
  field: AnyField;
  /** The group it is a column of. */
  group: FieldDefinition | null;
  form: FormDefinition;
  path: string;
  /** From the parent definition (read-only here). */
  inherited: boolean;
};

function validDateBound(value: string): boolean {
  return value === 'today' || parseDateValue(value) !== null;
}

function dateBoundValue(value: string): number | null {
  return value === 'today' ? null : parseDateValue(value);
}

/** Who already uses a variable name (the duplicate-key check of `checkDefinition` and `checkFieldKey`). */
type KeyOwner = { field: AnyField; form: FormDefinition; inherited: boolean };

function duplicateKeyMessage(key: string, owner: KeyOwner): string {
  const where = owner.inherited ? '上级项目的' : '';
  return `变量名 ${key} 重复：已被${where}表单「${owner.form.title}」的字段「${owner.field.label}」使用`;
}

/** The field (or group column) a designer edits: its form, its key, the column's key when it is one. */
export type FieldTarget = { formKey: string; fieldKey: string; columnKey?: string | null };

/**
 * The verdict on renaming one field to `key` — the same rules and message as `checkDefinition` (the pattern of the
 * schema, one owner per variable name across the definition and its parent): the problem at the field's `key`, or
 * null when the name may be used (or the field is not in the definition).
 */
export function checkFieldKey(
  definition: Definition,
  target: FieldTarget,
  key: string,
  opts: Pick<CheckOptions, 'parent'> = {},
): DefinitionProblem | null {
  const owners = new Map<string, KeyOwner>();
  const own = (field: AnyField, form: FormDefinition, inherited: boolean) => {
    if (!owners.has(field.key)) owners.set(field.key, { field, form, inherited });
  };
  if (opts.parent !== undefined) {
    for (const entry of listForms(opts.parent)) {
      for (const item of listFormFields(entry.form)) own(item.field, entry.form, true);
    }
  }
  let at: { path: string; formKey: string } | null = null;
  for (const entry of listForms(definition)) {
    for (const item of listFormFields(entry.form, entry.path)) {
      const isTarget =
        entry.form.key === target.formKey &&
        (target.columnKey
          ? item.group?.key === target.fieldKey && item.field.key === target.columnKey
          : item.group === null && item.field.key === target.fieldKey);
      if (isTarget && at === null) at = { path: item.path, formKey: entry.form.key };
      else own(item.field, entry.form, false);
    }
  }
  if (at === null) return null;
  const problem = (message: string): DefinitionProblem => ({
    path: `${at.path}.key`,
    formKey: at.formKey,
    fieldKey: target.columnKey ?? target.fieldKey,
    message,
    position: null,
  });
  if (!FIELD_KEY_PATTERN.test(key)) return problem(`变量名 ${key || '（空）'} 无效：${FIELD_KEY_MESSAGE}`);
  const owner = owners.get(key);
  return owner === undefined ? null : problem(duplicateKeyMessage(key, owner));
}

/** The schema's objections to a definition (an empty label, a bad option code) as problems at their paths. */
export function structuralProblems(definition: unknown): DefinitionProblem[] {
  const parsed = definitionSchema.safeParse(definition);
  if (parsed.success) return [];
  const doc = definition as Partial<Definition>;
  return parsed.error.issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    const match = /^categories\.(\d+)\.forms\.(\d+)(?:\.fields\.(\d+)(?:\.fields\.(\d+))?)?/.exec(path);
    const form = match ? doc.categories?.[Number(match[1])]?.forms?.[Number(match[2])] : undefined;
    const field = match?.[3] === undefined ? undefined : form?.fields?.[Number(match[3])];
    const column = match?.[4] === undefined ? undefined : field?.fields?.[Number(match[4])];
    const target = column ?? field;
    const where = target ? `字段 ${target.key}：` : form ? `表单 ${form.key}：` : '';
    return {
      path,
      formKey: form?.key ?? null,
      fieldKey: target?.key ?? null,
      message: `${where}${issue.message}`,
      position: null,
    };
  });
}

/** Finds the problems of a definition (empty when it may be published). Never throws on a schema-valid definition. */
export function checkDefinition(definition: Definition, opts: CheckOptions = {}): DefinitionProblem[] {
  const problems: DefinitionProblem[] = [];
  const add = (path: string, formKey: string | null, fieldKey: string | null, message: string, position?: number) =>
    problems.push({ path, formKey, fieldKey, message, position: position ?? null });

  // Keys of the parent -------------------------------------------------------------------------------------------
  const fields = new Map<string, FieldInfo>();
  const parentForms = new Set<string>();
  if (opts.parent !== undefined) {
    for (const entry of listForms(opts.parent)) {
      parentForms.add(entry.form.key);
      for (const item of listFormFields(entry.form, entry.path)) {
        if (!fields.has(item.field.key)) {
          fields.set(item.field.key, { ...item, form: entry.form, inherited: true });
        }
      }
    }
  }
  const missingCodes = new Set([
    ...definition.missingCodes.map((m) => m.code),
    ...(opts.parent?.missingCodes ?? []).map((m) => m.code),
  ]);

  // Unique keys ---------------------------------------------------------------------------------------------------
  const categoryKeys = new Set<string>();
  definition.categories.forEach((category, ci) => {
    if (categoryKeys.has(category.key)) add(`categories.${ci}.key`, null, null, `分类编码 ${category.key} 重复`);
    categoryKeys.add(category.key);
  });
  const formKeys = new Set<string>();
  const seenCodes = new Set<string>();
  definition.missingCodes.forEach((m, i) => {
    if (seenCodes.has(m.code)) add(`missingCodes.${i}.code`, null, null, `缺失值编码 ${m.code} 重复`);
    seenCodes.add(m.code);
  });

  for (const entry of listForms(definition)) {
    const { form } = entry;
    if (parentForms.has(form.key)) {
      add(`${entry.path}.key`, form.key, null, `表单编码 ${form.key} 已被上级项目使用`);
    } else if (formKeys.has(form.key)) {
      add(`${entry.path}.key`, form.key, null, `表单编码 ${form.key} 重复`);
    }
    formKeys.add(form.key);
    for (const item of listFormFields(form, entry.path)) {
      const existing = fields.get(item.field.key);
      if (existing !== undefined) {
        add(`${item.path}.key`, form.key, item.field.key, duplicateKeyMessage(item.field.key, existing));
      } else {
        fields.set(item.field.key, { ...item, form, inherited: false });
      }
    }
  }

  // Per field -----------------------------------------------------------------------------------------------------
  // Each distinct pattern is compiled once, and all of them within one budget (a draft is checked on every save).
  const patternBudget = { left: PATTERN_DEFINITION_BUDGET };
  const patterns = new Map<string, PatternResult>();
  const calcDeps = new Map<string, { refs: string[]; path: string; formKey: string }>();
  for (const entry of listForms(definition)) {
    const { form } = entry;
    for (const item of listFormFields(form, entry.path)) {
      const { field, group, path } = item;
      const name = fieldName(field);
      const problemAt = (suffix: string, message: string, position?: number) =>
        add(suffix === '' ? path : `${path}.${suffix}`, form.key, field.key, message, position);
      const problem = problemAt;

      const checkRefs = (refs: (LogicRef & { pos: number })[], suffix: string, what: string) => {
        const done = new Set<string>();
        for (const ref of refs) {
          const id = `${ref.key}(${ref.code ?? ''})`;
          if (done.has(id)) continue;
          done.add(id);
          const problem = (s: string, message: string) => problemAt(s, message, ref.pos);
          const target = fields.get(ref.key);
          const siblings = group?.fields ?? [];
          const sibling = group === null ? undefined : siblings.find((c) => c.key === ref.key);
          const found = sibling !== undefined ? { field: sibling as AnyField, group } : target;
          if (found === undefined) {
            problem(suffix, `${name}的${what}引用了不存在的字段 [${ref.key}]`);
            continue;
          }
          if (sibling === undefined && target !== undefined && target.group !== null) {
            problem(suffix, `${name}的${what}引用了重复组「${target.group.label}」的列 [${ref.key}]，只能在该组内引用`);
            continue;
          }
          if (LAYOUT_FIELD_TYPES.includes(found.field.type)) {
            problem(suffix, `${name}的${what}引用了不含数据的字段 [${ref.key}]`);
            continue;
          }
          if (ref.code !== undefined) {
            const t = found.field.type;
            const codes =
              t === 'yesno'
                ? ['1', '0']
                : CHOICE_FIELD_TYPES.includes(t)
                  ? (found.field.options ?? []).map((o) => o.code)
                  : null;
            if (t !== 'dict' && codes === null) {
              problem(suffix, `${name}的${what}中 [${ref.key}(${ref.code})] 无效：该字段没有选项`);
            } else if (codes !== null && !codes.includes(ref.code)) {
              problem(suffix, `${name}的${what}中 [${ref.key}(${ref.code})] 无效：没有编码为 ${ref.code} 的选项`);
            }
          }
        }
      };

      const checkExpr = (src: string, suffix: string, what: string): LogicRef[] => {
        const parsed = parseLogic(src);
        if (!parsed.ok) {
          problem(suffix, `${name}的${what}有误：${parsed.message}`, parsed.position);
          return [];
        }
        checkRefs(listRefNodes(parsed.ast), suffix, what);
        for (const lint of lintLogic(parsed.ast))
          problem(suffix, `${name}的${what}有误：${lint.message}`, lint.position);
        return parsed.refs;
      };

      if (field.showIf !== undefined && field.showIf.trim() !== '') checkExpr(field.showIf, 'showIf', '显示条件');
      (field.rules ?? []).forEach((rule, ri) => checkExpr(rule.expr, `rules.${ri}.expr`, `校验规则 ${ri + 1}`));

      const layout = LAYOUT_FIELD_TYPES.includes(field.type);
      if (layout) {
        const carried: string[] = [];
        if (field.required) carried.push('必填');
        if ((field.rules ?? []).length > 0) carried.push('校验规则');
        if (field.pattern !== undefined) carried.push('格式校验');
        if (field.min !== undefined || field.max !== undefined) carried.push('取值范围');
        if (field.minDate !== undefined || field.maxDate !== undefined) carried.push('日期范围');
        if ((field.missingCodes ?? []).length > 0) carried.push('缺失值编码');
        if (carried.length > 0)
          problem('', `${name}是${field.type === 'section' ? '分节标题' : '说明文字'}，不能设置${carried.join('、')}`);
      }

      if (field.type === 'calc') {
        if (field.required) problem('required', `${name}是计算字段，不能设为必填`);
        if (field.formula === undefined || field.formula.trim() === '') {
          problem('formula', `${name}缺少计算公式`);
        } else {
          const refs = checkExpr(field.formula, 'formula', '计算公式');
          calcDeps.set(field.key, { refs: refs.map((r) => r.key), path: `${path}.formula`, formKey: form.key });
        }
      } else if (field.formula !== undefined && field.formula.trim() !== '') {
        problem('formula', `${name}不是计算字段，不能设置计算公式`);
      }

      if (CHOICE_FIELD_TYPES.includes(field.type)) {
        const options = field.options ?? [];
        if (options.length === 0) problem('options', `${name}至少需要一个选项`);
        const codes = new Set<string>();
        options.forEach((option, oi) => {
          if (codes.has(option.code)) problem(`options.${oi}.code`, `${name}的选项编码 ${option.code} 重复`);
          codes.add(option.code);
        });
      }

      if (field.type === 'dict') {
        if (field.dictCode === undefined || field.dictCode.trim() === '') {
          problem('dictCode', `${name}须选择一个字典`);
        } else if (opts.dictCodes !== undefined && !opts.dictCodes.has(field.dictCode)) {
          problem('dictCode', `${name}引用的字典 ${field.dictCode} 不存在`);
        }
      }

      if (field.type === 'group') {
        if ((field.fields ?? []).length === 0) problem('fields', `${name}至少需要一列`);
        if (field.minRows !== undefined && field.maxRows !== undefined && field.minRows > field.maxRows) {
          problem('minRows', `${name}的最少行数不能大于最多行数`);
        }
      }

      if (field.min !== undefined && field.max !== undefined && field.min > field.max) {
        problem('min', `${name}的最小值不能大于最大值`);
      }
      if (field.normalLow !== undefined && field.normalHigh !== undefined && field.normalLow > field.normalHigh) {
        problem('normalLow', `${name}的正常值下限不能大于上限`);
      }
      if (
        (field.min !== undefined || field.max !== undefined) &&
        !NUMERIC_FIELD_TYPES.includes(field.type) &&
        !layout
      ) {
        problem('min', `${name}不是数字字段，不能设置最小值/最大值`);
      }

      for (const prop of ['minDate', 'maxDate'] as const) {
        const value = field[prop];
        if (value === undefined) continue;
        if (!DATE_TYPES.includes(field.type) && field.type !== 'partialDate') {
          if (!layout) problem(prop, `${name}不是日期字段，不能设置日期范围`);
        } else if (!validDateBound(value)) {
          problem(prop, `${name}的${prop === 'minDate' ? '最早日期' : '最晚日期'} ${value} 不是有效日期（或 today）`);
        }
      }
      if (field.minDate !== undefined && field.maxDate !== undefined) {
        const lo = dateBoundValue(field.minDate);
        const hi = dateBoundValue(field.maxDate);
        if (lo !== null && hi !== null && lo > hi) problem('minDate', `${name}的最早日期不能晚于最晚日期`);
      }

      if (field.pattern !== undefined) {
        const regex = field.pattern.regex;
        const compiled = patterns.get(regex) ?? compilePattern(regex, patternBudget);
        patterns.set(regex, compiled);
        if (!compiled.ok) problem('pattern.regex', `${name}的正则表达式${compiled.reason}：${field.pattern.regex}`);
        if (!['text', 'textarea'].includes(field.type) && !layout) {
          problem('pattern', `${name}只有文本字段可以设置格式校验`);
        }
      }

      if (field.precision !== undefined && field.type !== 'decimal' && field.type !== 'calc') {
        problem('precision', `${name}只有小数或计算字段可以设置小数位数`);
      }

      (field.missingCodes ?? []).forEach((code, mi) => {
        if (!missingCodes.has(code))
          problem(`missingCodes.${mi}`, `${name}的缺失值编码 ${code} 不在本数据库的缺失值列表中`);
      });
    }
  }

  // Calculation cycles ----------------------------------------------------------------------------------------------
  const state = new Map<string, 'visiting' | 'done'>();
  const reported = new Set<string>();
  const stack: string[] = [];
  const visit = (key: string) => {
    const mark = state.get(key);
    if (mark === 'done') return;
    if (mark === 'visiting') {
      const cycle = [...stack.slice(stack.indexOf(key)), key];
      const id = [...new Set(cycle)].sort().join(',');
      if (!reported.has(id)) {
        reported.add(id);
        const first = calcDeps.get(key);
        if (first !== undefined) add(first.path, first.formKey, key, `计算公式循环引用：${cycle.join(' → ')}`);
      }
      return;
    }
    const deps = calcDeps.get(key);
    if (deps === undefined) return;
    state.set(key, 'visiting');
    stack.push(key);
    for (const dep of deps.refs) visit(dep);
    stack.pop();
    state.set(key, 'done');
  };
  for (const key of calcDeps.keys()) visit(key);

  // Patient bindings: a fitting type, a non-repeating form, one field per attribute per form ----------------------
  for (const entry of listForms(definition)) {
    const { form } = entry;
    const taken = new Map<string, string>();
    form.fields.forEach((field, fi) => {
      const binding = field.binding;
      if (binding === undefined) return;
      const at = `${entry.path}.fields.${fi}.binding`;
      const label = PATIENT_BINDING_LABELS[binding];
      if (form.repeating) {
        add(at, form.key, field.key, `${fieldName(field)}在重复表单「${form.title}」中，不能绑定患者信息「${label}」`);
        return;
      }
      if (!bindingFits(field, binding)) {
        add(at, form.key, field.key, bindingMismatchMessage(field, binding));
        return;
      }
      if (field.showIf !== undefined && field.showIf.trim() !== '') {
        add(
          at,
          form.key,
          field.key,
          `${fieldName(field)}绑定了患者信息「${label}」，不能设置显示条件（患者信息总是显示）`,
        );
        return;
      }
      const other = taken.get(attributeOf(binding));
      if (other !== undefined) {
        add(
          at,
          form.key,
          field.key,
          `患者信息「${label}」在表单「${form.title}」中已绑定到字段 ${other}，每项只能绑定一个字段`,
        );
        return;
      }
      taken.set(attributeOf(binding), field.key);
    });
  }

  // Show-if circles within a form (or a group's row): the renderer could not settle which fields show.
  const refsOf = (src: string | undefined): string[] => {
    if (src === undefined || src.trim() === '') return [];
    const parsed = parseLogic(src);
    return parsed.ok ? parsed.refs.map((r) => r.key) : [];
  };
  for (const entry of listForms(definition)) {
    const scopes: { fields: AnyField[]; base: string }[] = [{ fields: entry.form.fields, base: entry.path }];
    entry.form.fields.forEach((field, fi) => {
      if (field.type === 'group') scopes.push({ fields: field.fields ?? [], base: `${entry.path}.fields.${fi}` });
    });
    for (const { fields: list, base } of scopes) {
      const byKey = new Map(list.map((f, i) => [f.key, { field: f, index: i }]));
      const showDeps = (key: string) => refsOf(byKey.get(key)?.field.showIf);
      const calcDepsOf = (key: string) => {
        const f = byKey.get(key)?.field;
        return f?.type === 'calc' ? refsOf(f.formula) : [];
      };
      const deps = (key: string) => [...showDeps(key), ...calcDepsOf(key)];
      for (const component of dependencyOrder([...byKey.keys()], deps)) {
        if (!component.cyclic) continue;
        const members = new Set(component.nodes);
        const start = component.nodes.find((k) => showDeps(k).some((d) => members.has(d))) ?? component.nodes[0];
        if (start === undefined) continue;
        const cycle = describeCycle(start, members, deps);
        const viaShowIf = cycle.some((k, i) => {
          const next = cycle[i + 1];
          return next !== undefined && showDeps(k).includes(next);
        });
        if (!viaShowIf) continue;
        const at = byKey.get(cycle[0] ?? start);
        if (at === undefined) continue;
        add(
          `${base}.fields.${at.index}.showIf`,
          entry.form.key,
          at.field.key,
          `显示条件循环依赖：${cycle.join(' → ')}`,
        );
      }
    }
  }

  return problems;
}

/** The path of a form's problems prefix, for filtering the problems of one form in the designer. */
export function problemsOfForm(problems: DefinitionProblem[], formKey: string): DefinitionProblem[] {
  return problems.filter((p) => p.formKey === formKey);
}
