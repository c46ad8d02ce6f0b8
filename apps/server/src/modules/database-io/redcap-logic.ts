import { LAYOUT_FIELD_TYPES, type FieldDefinition } from '@registry/shared/forms/definition';
import { listRefNodes, parseLogic } from '@registry/shared/forms/logic';
import { HEADER_NAMES } from './redcap-columns';
import type { ImportState } from './redcap-state';

/**
 * Branching logic and calculations: REDCap's language translated to ours, then parsed by the engine and their
 * references checked; one that fails keeps no logic and is listed with its row, field, column and original text.
 */

/** Smart variables and longitudinal syntax we cannot express: `[event][field]`, `[user-name]`, `[field:value]`. */
function untranslatableReason(src: string): string | null {
  const refs = src.match(/\[[^\]]*\]/g) ?? [];
  if (/\]\s*\[/.test(src.replace(/'[^']*'|"[^"]*"/g, '')))
    return '引用了其他事件或重复实例（[事件][字段]），本系统不支持';
  for (const ref of refs) {
    const inner = ref.slice(1, -1);
    if (/^[a-z][a-z0-9_]*(\([A-Za-z0-9_.-]+\))?$/i.test(inner.trim())) continue;
    if (inner.includes(':')) return `引用了带修饰符的变量 ${ref}，本系统不支持`;
    return `引用了 REDCap 智能变量 ${ref}，本系统不支持`;
  }
  return null;
}

/**
 * REDCap logic → ours: variables renamed, `AND`/`OR`/`NOT` lowercased, `#` comments and runs of white space dropped,
 * everything else kept (our language is
 * REDCap-like: `=`, `<>`, `datediff(..., 'ymd')`, `if`, `sum`, `rounddown` ...). Strings are copied untouched.
 */
function translateLogic(
  src: string,
  keyOf: ReadonlyMap<string, string>,
  codeOf: ReadonlyMap<string, ReadonlyMap<string, string>>,
): string {
  let out = '';
  let i = 0;
  while (i < src.length) {
    const c = src[i] as string;
    if (c === '"' || c === "'") {
      const end = src.indexOf(c, i + 1);
      const stop = end < 0 ? src.length : end + 1;
      out += src.slice(i, stop);
      i = stop;
      continue;
    }
    if (c === '[') {
      const end = src.indexOf(']', i);
      if (end < 0) {
        out += src.slice(i);
        break;
      }
      const inner = src.slice(i + 1, end).trim();
      const m = /^([A-Za-z][A-Za-z0-9_]*)(?:\(([^)]*)\))?$/.exec(inner);
      if (m) {
        const name = (m[1] as string).toLowerCase();
        const key = keyOf.get(name) ?? name;
        const code = m[2] === undefined ? undefined : (codeOf.get(name)?.get(m[2].trim()) ?? m[2].trim());
        out += code === undefined ? `[${key}]` : `[${key}(${code})]`;
      } else out += src.slice(i, end + 1);
      i = end + 1;
      continue;
    }
    if (c === '#' || (c === '/' && src[i + 1] === '/')) {
      // REDCap comments run to the end of the line.
      const end = src.indexOf('\n', i);
      i = end < 0 ? src.length : end;
      continue;
    }
    if (/\s/.test(c)) {
      if (!out.endsWith(' ') && !out.endsWith('(')) out += ' ';
      while (i < src.length && /\s/.test(src[i] as string)) i++;
      continue;
    }
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i));
    if (word) {
      const w = word[0];
      out += /^(and|or|not)$/i.test(w) ? w.toLowerCase() : w;
      i += w.length;
      continue;
    }
    out += c;
    i++;
  }
  return out.trim();
}

/** Why translated logic cannot be kept (it does not parse, or names a missing field or option), or null. */
function refProblem(src: string, fieldByKey: ReadonlyMap<string, FieldDefinition>): string | null {
  const parsed = parseLogic(src);
  if (!parsed.ok) return `无法解析：${parsed.message}`;
  for (const ref of listRefNodes(parsed.ast)) {
    const target = fieldByKey.get(ref.key);
    if (!target) return `引用了不存在的字段 [${ref.key}]`;
    if (LAYOUT_FIELD_TYPES.includes(target.type)) return `引用了不含数据的字段 [${ref.key}]`;
    if (ref.code !== undefined) {
      const codes = target.type === 'yesno' ? ['1', '0'] : target.options ? target.options.map((o) => o.code) : null;
      if (codes === null && target.type !== 'dict') return `[${ref.key}(${ref.code})] 无效：该字段没有选项`;
      if (codes !== null && !codes.includes(ref.code)) return `[${ref.key}(${ref.code})] 无效：没有该选项`;
    }
  }
  return null;
}

/**
 * Logic: translate, parse, check references; a failure keeps no logic and is listed (a calculation then becomes a
 * decimal field). A calc field left without a formula becomes a decimal field too.
 */
export function translatePendingLogic(state: ImportState): void {
  const { pendingLogic, keyOf, choiceCodes, fieldByKey } = state;
  const { note, notes, summary } = state.report;
  for (const p of pendingLogic) {
    const what = p.column === 'branching' ? '显示条件' : '计算公式';
    const at = { formKey: p.form.key, fieldKey: p.field.key, column: p.column, source: p.src };
    const reason = untranslatableReason(p.src);
    const translated = reason ? null : translateLogic(p.src, keyOf, choiceCodes);
    const problem =
      reason ??
      (translated === null
        ? '无法转换'
        : translated.length > 2000
          ? '超过 2000 个字符'
          : refProblem(translated, fieldByKey));
    if (problem === null && translated !== null) {
      if (p.column === 'branching') {
        p.field.showIf = translated;
        summary.branchingTranslated++;
      } else {
        p.field.formula = translated;
        summary.calcsTranslated++;
      }
      continue;
    }
    if (p.column === 'choices') {
      p.field.type = 'decimal';
      note(p.row, 'untranslated', `${what}${problem}，已改为小数字段（需手工录入）`, at);
    } else note(p.row, 'untranslated', `${what}${problem}，该字段将始终显示`, at);
  }
  for (const field of fieldByKey.values())
    if (field.type === 'calc' && !field.formula) {
      field.type = 'decimal';
      notes.push({
        row: null,
        formKey: null,
        fieldKey: field.key,
        column: HEADER_NAMES.choices,
        severity: 'untranslated',
        message: `计算字段 ${field.key} 没有计算公式，已改为小数字段`,
        source: null,
      });
    }
}
