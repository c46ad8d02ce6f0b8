import type { DefinitionChange } from '../contracts/form-definition';
import type { AnyField, CategoryDefinition, Definition, FieldOption, FormDefinition } from './definition';
import { FIELD_TYPE_LABELS } from './definition';
import { PATIENT_BINDING_LABELS, type PatientBinding } from './binding';

/**
 * The readable difference between two definitions (a version and the one before it, or the draft and the latest
 * version). Categories, forms and fields are matched by key (group columns as `group.column`); each changed property
 * is one entry with a Chinese sentence. `breaking` marks what would leave entered data without a home or meaning:
 * a field or group column removed (or moved to another form or group), a type changed, an option code removed.
 */

const FIELD_PROPERTY_LABELS: Record<string, string> = {
  label: '名称',
  type: '类型',
  required: '必填',
  help: '帮助说明',
  showIf: '显示条件',
  phi: '隐私信息标记',
  listColumn: '列表列',
  missingCodes: '缺失值编码',
  maxLength: '最大长度',
  pattern: '格式校验',
  unit: '单位',
  precision: '小数位数',
  min: '最小值',
  max: '最大值',
  minDate: '最早日期',
  maxDate: '最晚日期',
  rangeLevel: '范围校验级别',
  normalLow: '正常值下限',
  normalHigh: '正常值上限',
  options: '选项',
  dictCode: '字典',
  formula: '计算公式',
  accept: '文件类型',
  maxFiles: '最多文件数',
  minRows: '最少行数',
  maxRows: '最多行数',
  rules: '校验规则',
  binding: '绑定患者信息',
};
const FIELD_PROPERTIES = Object.keys(FIELD_PROPERTY_LABELS);

const FORM_PROPERTY_LABELS: Record<string, string> = {
  title: '名称',
  description: '说明',
  followUp: '随访表单',
  repeating: '可重复',
};

type FieldSite = {
  field: AnyField;
  form: FormDefinition;
  category: CategoryDefinition;
  /** The group key for a column. */
  group: string | null;
  /** `key` or `group.key` */
  id: string;
  index: number;
};

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  return JSON.stringify(normalize(a)) === JSON.stringify(normalize(b));
}

/** Undefined, false and [] as "not set" for booleans and lists; object keys sorted. */
function normalize(value: unknown): unknown {
  if (value === undefined || value === null || value === false || value === '') return null;
  if (Array.isArray(value)) return value.length === 0 ? null : value.map(normalize);
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value as Record<string, unknown>).sort()) {
      out[key] = normalize((value as Record<string, unknown>)[key]);
    }
    return out;
  }
  return value;
}

function show(value: unknown): string {
  if (value === undefined || value === null || value === '') return '（空）';
  if (typeof value === 'boolean') return value ? '是' : '否';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join('、');
  return JSON.stringify(value);
}

/** Keys common to both orders that changed their relative position (not on a longest common subsequence). */
function movedKeys(before: string[], after: string[]): Set<string> {
  const inAfter = new Set(after);
  const inBefore = new Set(before);
  const a = before.filter((k) => inAfter.has(k));
  const b = after.filter((k) => inBefore.has(k));
  if (a.length === b.length && a.every((k, i) => k === b[i])) return new Set();
  const n = a.length;
  const m = b.length;
  const table: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    const row = table[i] as number[];
    const next = table[i + 1] as number[];
    for (let j = m - 1; j >= 0; j--) {
      row[j] = a[i] === b[j] ? (next[j + 1] as number) + 1 : Math.max(next[j] as number, row[j + 1] as number);
    }
  }
  const kept = new Set<string>();
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      kept.add(a[i] as string);
      i++;
      j++;
    } else if ((table[i + 1]?.[j] ?? 0) >= (table[i]?.[j + 1] ?? 0)) i++;
    else j++;
  }
  return new Set(a.filter((k) => !kept.has(k)));
}

function fieldSites(definition: Definition | null): Map<string, FieldSite> {
  const out = new Map<string, FieldSite>();
  for (const category of definition?.categories ?? []) {
    for (const form of category.forms) {
      form.fields.forEach((field, index) => {
        if (!out.has(field.key)) out.set(field.key, { field, form, category, group: null, id: field.key, index });
        if (field.type === 'group') {
          (field.fields ?? []).forEach((column, ci) => {
            const id = `${field.key}.${column.key}`;
            if (!out.has(id)) out.set(id, { field: column, form, category, group: field.key, id, index: ci });
          });
        }
      });
    }
  }
  return out;
}

function formSites(definition: Definition | null): Map<string, { form: FormDefinition; category: CategoryDefinition }> {
  const out = new Map<string, { form: FormDefinition; category: CategoryDefinition }>();
  for (const category of definition?.categories ?? []) {
    for (const form of category.forms) if (!out.has(form.key)) out.set(form.key, { form, category });
  }
  return out;
}

function optionsSummary(before: FieldOption[], after: FieldOption[]): { text: string; removed: boolean } {
  const parts: string[] = [];
  const beforeBy = new Map(before.map((o) => [o.code, o]));
  const afterBy = new Map(after.map((o) => [o.code, o]));
  const added = after.filter((o) => !beforeBy.has(o.code));
  const removed = before.filter((o) => !afterBy.has(o.code));
  const relabelled = after.filter((o) => {
    const old = beforeBy.get(o.code);
    return old !== undefined && old.label !== o.label;
  });
  if (added.length > 0) parts.push(`新增 ${added.map((o) => `${o.code}「${o.label}」`).join('、')}`);
  if (removed.length > 0) parts.push(`删除 ${removed.map((o) => `${o.code}「${o.label}」`).join('、')}`);
  for (const o of relabelled) parts.push(`${o.code} 由「${beforeBy.get(o.code)?.label ?? ''}」改名为「${o.label}」`);
  if (parts.length === 0) parts.push('调整了顺序');
  return { text: parts.join('；'), removed: removed.length > 0 };
}

function fieldPropertySummary(property: string, before: unknown, after: unknown): string {
  const label = FIELD_PROPERTY_LABELS[property] ?? property;
  if (property === 'required' || property === 'phi' || property === 'listColumn') {
    return after === true ? `设为${label}` : `取消${label}`;
  }
  if (property === 'type') {
    const b = FIELD_TYPE_LABELS[before as keyof typeof FIELD_TYPE_LABELS] ?? show(before);
    const a = FIELD_TYPE_LABELS[after as keyof typeof FIELD_TYPE_LABELS] ?? show(after);
    return `类型由「${b}」改为「${a}」`;
  }
  if (property === 'options') {
    return `选项：${optionsSummary((before as FieldOption[] | undefined) ?? [], (after as FieldOption[] | undefined) ?? []).text}`;
  }
  if (property === 'rules') {
    const b = (before as { expr: string }[] | undefined) ?? [];
    const a = (after as { expr: string }[] | undefined) ?? [];
    return `校验规则由 ${b.length} 条改为 ${a.length} 条${a.length > 0 ? `：${a.map((r) => r.expr).join('；')}` : ''}`;
  }
  if (property === 'binding') {
    const name = (v: unknown) => PATIENT_BINDING_LABELS[v as PatientBinding] ?? show(v);
    if (after === undefined || after === null) return `取消${label}（原为「${name(before)}」）`;
    if (before === undefined || before === null) return `${label}「${name(after)}」`;
    return `${label}由「${name(before)}」改为「${name(after)}」`;
  }
  if (property === 'pattern') {
    const a = after as { regex: string } | undefined;
    return a === undefined ? '删除格式校验' : `格式校验改为「${a.regex}」`;
  }
  if (normalize(before) === null) return `新增${label}「${show(after)}」`;
  if (normalize(after) === null) return `删除${label}（原为「${show(before)}」）`;
  return `${label}由「${show(before)}」改为「${show(after)}」`;
}

/** The changes from `before` to `after` (`before` null: everything is added). Empty when they are the same. */
export function diffDefinitions(before: Definition | null, after: Definition): DefinitionChange[] {
  const changes: DefinitionChange[] = [];
  const push = (change: Omit<DefinitionChange, 'breaking'> & { breaking?: boolean }) =>
    changes.push({ ...change, breaking: change.breaking ?? false });

  // Definition --------------------------------------------------------------------------------------------------------
  if (before !== null && !same(before.missingCodes, after.missingCodes)) {
    const b = new Map(before.missingCodes.map((m) => [m.code, m.label]));
    const a = new Map(after.missingCodes.map((m) => [m.code, m.label]));
    const parts: string[] = [];
    const added = [...a.keys()].filter((c) => !b.has(c));
    const removed = [...b.keys()].filter((c) => !a.has(c));
    const relabelled = [...a.keys()].filter((c) => b.has(c) && b.get(c) !== a.get(c));
    if (added.length > 0) parts.push(`新增 ${added.map((c) => `${c}「${a.get(c) ?? ''}」`).join('、')}`);
    if (removed.length > 0) parts.push(`删除 ${removed.map((c) => `${c}「${b.get(c) ?? ''}」`).join('、')}`);
    for (const c of relabelled) parts.push(`${c} 由「${b.get(c) ?? ''}」改名为「${a.get(c) ?? ''}」`);
    if (parts.length === 0) parts.push('调整了顺序');
    push({
      kind: 'changed',
      entity: 'definition',
      categoryKey: null,
      formKey: null,
      fieldKey: null,
      property: 'missingCodes',
      before: before.missingCodes,
      after: after.missingCodes,
      summary: `缺失值编码：${parts.join('；')}`,
    });
  }

  // Categories ----------------------------------------------------------------------------------------------------
  const beforeCategories = new Map((before?.categories ?? []).map((c) => [c.key, c]));
  const afterCategories = new Map(after.categories.map((c) => [c.key, c]));
  const movedCategories = movedKeys([...beforeCategories.keys()], [...afterCategories.keys()]);
  for (const category of after.categories) {
    const old = beforeCategories.get(category.key);
    const base = { entity: 'category' as const, categoryKey: category.key, formKey: null, fieldKey: null };
    if (old === undefined) {
      push({
        ...base,
        kind: 'added',
        property: null,
        after: category.title,
        summary: `新增分类「${category.title}」(${category.key})`,
      });
      continue;
    }
    if (old.title !== category.title) {
      push({
        ...base,
        kind: 'changed',
        property: 'title',
        before: old.title,
        after: category.title,
        summary: `分类 ${category.key}：名称由「${old.title}」改为「${category.title}」`,
      });
    }
    if (movedCategories.has(category.key)) {
      push({ ...base, kind: 'moved', property: null, summary: `分类「${category.title}」调整了顺序` });
    }
  }
  for (const old of before?.categories ?? []) {
    if (afterCategories.has(old.key)) continue;
    push({
      kind: 'removed',
      entity: 'category',
      categoryKey: old.key,
      formKey: null,
      fieldKey: null,
      property: null,
      before: old.title,
      summary: `删除分类「${old.title}」(${old.key})`,
    });
  }

  // Forms -----------------------------------------------------------------------------------------------------------
  const beforeForms = formSites(before);
  const afterForms = formSites(after);
  const movedForms = new Set<string>();
  for (const category of after.categories) {
    const old = beforeCategories.get(category.key);
    if (old === undefined) continue;
    for (const key of movedKeys(
      old.forms.map((f) => f.key),
      category.forms.map((f) => f.key),
    )) {
      movedForms.add(key);
    }
  }
  for (const [key, { form, category }] of afterForms) {
    const old = beforeForms.get(key);
    const base = { entity: 'form' as const, categoryKey: category.key, formKey: key, fieldKey: null };
    if (old === undefined) {
      push({
        ...base,
        kind: 'added',
        property: null,
        after: form.title,
        summary: `分类「${category.title}」新增表单「${form.title}」(${key})`,
      });
      continue;
    }
    for (const property of Object.keys(FORM_PROPERTY_LABELS) as (keyof typeof FORM_PROPERTY_LABELS)[]) {
      const b = (old.form as Record<string, unknown>)[property];
      const a = (form as Record<string, unknown>)[property];
      if (same(b, a)) continue;
      const label = FORM_PROPERTY_LABELS[property] ?? property;
      const text =
        property === 'followUp' || property === 'repeating'
          ? a === true
            ? `设为${label}`
            : `取消${label}`
          : `${label}由「${show(b)}」改为「${show(a)}」`;
      push({ ...base, kind: 'changed', property, before: b, after: a, summary: `表单「${form.title}」：${text}` });
    }
    if (old.category.key !== category.key) {
      push({
        ...base,
        kind: 'moved',
        property: 'category',
        before: old.category.key,
        after: category.key,
        summary: `表单「${form.title}」从分类「${old.category.title}」移到分类「${category.title}」`,
      });
    } else if (movedForms.has(key)) {
      push({
        ...base,
        kind: 'moved',
        property: null,
        summary: `表单「${form.title}」在分类「${category.title}」中调整了顺序`,
      });
    }
  }
  for (const [key, { form, category }] of beforeForms) {
    if (afterForms.has(key)) continue;
    const count = form.fields.length;
    push({
      kind: 'removed',
      entity: 'form',
      categoryKey: category.key,
      formKey: key,
      fieldKey: null,
      property: null,
      before: form.title,
      summary: `删除表单「${form.title}」(${key})${count > 0 ? `及其 ${count} 个字段` : ''}`,
      breaking: count > 0,
    });
  }

  // Fields ----------------------------------------------------------------------------------------------------------
  const beforeFields = fieldSites(before);
  const afterFields = fieldSites(after);
  // Order changes within the same form (own fields) or the same group (columns).
  const movedFields = new Set<string>();
  for (const [key, { form }] of afterForms) {
    const old = beforeForms.get(key);
    if (old === undefined) continue;
    for (const k of movedKeys(
      old.form.fields.map((f) => f.key),
      form.fields.map((f) => f.key),
    )) {
      movedFields.add(k);
    }
    const oldGroups = new Map(old.form.fields.filter((f) => f.type === 'group').map((f) => [f.key, f]));
    for (const field of form.fields) {
      const oldGroup = oldGroups.get(field.key);
      if (field.type !== 'group' || oldGroup === undefined) continue;
      for (const k of movedKeys(
        (oldGroup.fields ?? []).map((c) => c.key),
        (field.fields ?? []).map((c) => c.key),
      )) {
        movedFields.add(`${field.key}.${k}`);
      }
    }
  }
  for (const [id, site] of afterFields) {
    const old = beforeFields.get(id);
    const { field, form, category } = site;
    const base = { entity: 'field' as const, categoryKey: category.key, formKey: form.key, fieldKey: id };
    const prefix = `表单「${form.title}」字段 ${id}`;
    if (old === undefined) {
      push({
        ...base,
        kind: 'added',
        property: null,
        after: field.label,
        summary: `表单「${form.title}」新增${site.group === null ? '字段' : `重复组 ${site.group} 的列`}「${field.label}」(${id})，类型：${FIELD_TYPE_LABELS[field.type]}`,
      });
      continue;
    }
    for (const property of FIELD_PROPERTIES) {
      const b = (old.field as Record<string, unknown>)[property];
      const a = (field as Record<string, unknown>)[property];
      if (same(b, a)) continue;
      const breaking =
        property === 'type' ||
        (property === 'options' &&
          optionsSummary((b as FieldOption[] | undefined) ?? [], (a as FieldOption[] | undefined) ?? []).removed);
      push({
        ...base,
        kind: 'changed',
        property,
        before: b,
        after: a,
        summary: `${prefix}：${fieldPropertySummary(property, b, a)}`,
        breaking,
      });
    }
    if (old.form.key !== form.key) {
      push({
        ...base,
        kind: 'moved',
        property: 'form',
        before: old.form.key,
        after: form.key,
        summary: `字段「${field.label}」(${id})从表单「${old.form.title}」移到表单「${form.title}」，原表单中已录入的数据将不再显示`,
        breaking: true,
      });
    } else if (movedFields.has(id)) {
      push({ ...base, kind: 'moved', property: null, summary: `${prefix}「${field.label}」调整了顺序` });
    }
  }
  for (const [id, old] of beforeFields) {
    if (afterFields.has(id)) continue;
    push({
      kind: 'removed',
      entity: 'field',
      categoryKey: old.category.key,
      formKey: old.form.key,
      fieldKey: id,
      property: null,
      before: old.field.label,
      summary: `表单「${old.form.title}」删除${old.group === null ? '字段' : `重复组 ${old.group} 的列`}「${old.field.label}」(${id})`,
      breaking: old.field.type !== 'section' && old.field.type !== 'description',
    });
  }
  return changes;
}

/** The breaking changes of a diff (what publishing must confirm when data exists). */
export function breakingChanges(changes: DefinitionChange[]): DefinitionChange[] {
  return changes.filter((change) => change.breaking);
}
