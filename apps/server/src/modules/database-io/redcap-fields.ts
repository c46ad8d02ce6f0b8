import {
  FIELD_KEY_PATTERN,
  LAYOUT_FIELD_TYPES,
  type FieldDefinition,
  type FormDefinition,
} from '@registry/shared/forms/definition';
import { HEADER_NAMES, type Row } from './redcap-columns';
import { applyFieldType } from './redcap-field-type';
import type { RedcapReport } from './redcap-report';
import type { FieldContext, ImportState } from './redcap-state';
import { HELP_MAX, LABEL_MAX, humanise, looksLikeHtml, makeKey, stripHtml } from './redcap-text';

/**
 * The rows of a REDCap dictionary → forms of fields: keys, forms in file order, a section field for a section header,
 * the label and help, the type (redcap-field-type.ts), the row's flags; logic is only collected here (redcap-logic.ts
 * translates it once every field exists).
 */

type At = { formKey: string; fieldKey: string };

/** Keys first: every variable's key (renamed when invalid or taken), so logic can be translated to the new names. */
export function assignKeys(rows: Row[], state: ImportState): void {
  const { takenKeys, keyOf, rowKey } = state;
  for (const row of rows) {
    const variable = row.get('variable');
    if (!variable) continue;
    const lower = variable.toLowerCase();
    const key = FIELD_KEY_PATTERN.test(lower) && !takenKeys.has(lower) ? lower : makeKey(lower, takenKeys, 'f');
    takenKeys.add(key);
    if (!keyOf.has(lower)) keyOf.set(lower, key);
    rowKey.set(row, key);
  }
}

/** The row's form, made on its first row (its key made valid, noted). */
function formOf(row: Row, formName: string, state: ImportState): FormDefinition {
  const { formByName, takenFormKeys, forms } = state;
  const note = state.report.note;
  let form = formByName.get(formName);
  if (!form) {
    const formKey = FIELD_KEY_PATTERN.test(formName) ? formName : makeKey(formName, takenFormKeys, 'form');
    takenFormKeys.add(formKey);
    if (formKey !== formName)
      note(row, 'changed', `表单名 ${formName} 不符合编码规则，已改为 ${formKey}`, {
        column: 'form',
        formKey,
        source: formName,
      });
    form = { key: formKey, title: humanise(formName).slice(0, 200), fields: [] };
    formByName.set(formName, form);
    forms.push(form);
  }
  return form;
}

/** Section header → a section field before the field. */
function addSection(row: Row, key: string, form: FormDefinition, at: At, state: ImportState): void {
  const note = state.report.note;
  const sectionHeader = row.get('section');
  if (sectionHeader) {
    const sectionKey = makeKey(`${key.slice(0, 56)}_section`, state.takenKeys, 's');
    const text = stripHtml(sectionHeader) || sectionHeader;
    form.fields.push({ key: sectionKey, type: 'section', label: text.slice(0, LABEL_MAX) });
    if (text !== sectionHeader || text.length > LABEL_MAX)
      note(row, 'changed', `分节标题已转为纯文本${text.length > LABEL_MAX ? `并截断为 ${LABEL_MAX} 字` : ''}`, {
        ...at,
        column: 'section',
        source: sectionHeader,
      });
  }
}

/** Label (HTML stripped, length bounded) and help (the field note, and a label too long for its place). */
function labelAndHelp(
  row: Row,
  variable: string,
  at: At,
  note: RedcapReport['note'],
): { label: string; help: string | undefined } {
  const rawLabel = row.get('label');
  let label = stripHtml(rawLabel);
  let help: string | undefined;
  if (looksLikeHtml(rawLabel) && label !== rawLabel)
    note(row, 'changed', '字段名称中的 HTML 格式已去除，仅保留文字', { ...at, column: 'label', source: rawLabel });
  if (!label) {
    label = variable;
    note(row, 'changed', `字段名称为空，已使用变量名 ${variable}`, { ...at, column: 'label' });
  }
  const fullLabel = label.length > LABEL_MAX ? label : null;
  if (fullLabel !== null) label = `${label.slice(0, LABEL_MAX - 1)}…`;
  const fieldNote = row.get('note');
  const noteText = fieldNote ? stripHtml(fieldNote) : '';
  if (fieldNote && noteText !== fieldNote && looksLikeHtml(fieldNote))
    note(row, 'changed', '字段说明中的 HTML 格式已去除', { ...at, column: 'note', source: fieldNote });
  const helpText = [noteText, fullLabel].filter(Boolean).join('\n');
  if (helpText) help = helpText.slice(0, HELP_MAX);
  if (fieldNote && noteText.length > HELP_MAX)
    note(row, 'untranslated', `字段说明超过 ${HELP_MAX} 字，只保留了前 ${HELP_MAX} 字`, {
      ...at,
      column: 'note',
      source: fieldNote,
    });
  if (fullLabel !== null) {
    const kept = Math.max(0, HELP_MAX - (noteText ? noteText.length + 1 : 0));
    note(
      row,
      kept >= fullLabel.length ? 'changed' : 'untranslated',
      kept >= fullLabel.length
        ? `字段名称超过 ${LABEL_MAX} 字，已截断（全文放入帮助说明）`
        : `字段名称超过 ${LABEL_MAX} 字，已截断；帮助说明最多 ${HELP_MAX} 字${noteText ? '（已含字段说明）' : ''}，全文 ${fullLabel.length} 字只保留了前 ${kept} 字`,
      { ...at, column: 'label', source: rawLabel },
    );
  }
  return { label, help };
}

/**
 * The row's other columns: identifier, required, branching logic (collected), alignment, question number, matrix
 * group, annotation.
 */
function applyRowFlags(ctx: FieldContext): void {
  const { row, field, form, at, state } = ctx;
  const { note, summary } = state.report;
  const { pendingLogic, alignmentRows, matrixNoted } = state;
  if (row.get('identifier').toLowerCase() === 'y') field.phi = true;
  if (row.get('required').toLowerCase() === 'y') {
    if (field.type === 'calc' || LAYOUT_FIELD_TYPES.includes(field.type))
      note(row, 'untranslated', '计算字段和说明文字不能设为必填，已忽略“必填”', { ...at, column: 'required' });
    else field.required = true;
  }
  const branching = row.get('branching');
  if (branching) {
    summary.branching++;
    pendingLogic.push({ row, field, form, column: 'branching', src: branching });
  }
  if (row.get('alignment')) alignmentRows.push(row.rowNo);
  if (row.get('questionNumber'))
    note(row, 'untranslated', '问卷题号未导入', {
      ...at,
      column: 'questionNumber',
      source: row.get('questionNumber'),
    });
  const matrix = row.get('matrixGroup');
  if (matrix && !matrixNoted.has(matrix)) {
    matrixNoted.add(matrix);
    const ranking = row.get('matrixRanking').toLowerCase() === 'y' ? '（含矩阵排序）' : '';
    note(row, 'changed', `矩阵组 ${matrix}${ranking}的字段已作为普通字段逐个导入`, {
      ...at,
      column: 'matrixGroup',
      source: matrix,
    });
  }
  const annotation = row.get('annotation');
  if (annotation) {
    const tags = [...new Set(annotation.match(/@[A-Z][A-Z0-9_-]*/g) ?? [])];
    const meaning: Record<string, string> = {
      '@HIDDEN': '在表单中隐藏',
      '@READONLY': '只读',
      '@READONLY-FORM': '表单内只读',
      '@CALCTEXT': '计算文本',
      '@USERNAME': '填入当前用户名',
      '@DEFAULT': '默认值',
      '@NOW': '填入当前时间',
      '@TODAY': '填入今天日期',
    };
    const what = tags.length > 0 ? tags.map((t) => `${t}${meaning[t] ? `（${meaning[t]}）` : ''}`).join('、') : '说明';
    note(row, 'untranslated', `字段注释 ${what} 未导入`, { ...at, column: 'annotation', source: annotation });
  }
}

/** One row → a field of its form (and a section field before it); a row without a variable or a form is noted. */
function importRow(row: Row, state: ImportState): void {
  const note = state.report.note;
  const variable = row.get('variable');
  const formName = row.get('form');
  if (!variable) {
    note(row, 'untranslated', '缺少变量名，该行未导入', { column: 'variable', source: row.get('label') || null });
    return;
  }
  if (!formName) {
    note(row, 'untranslated', `变量 ${variable} 缺少表单名，该行未导入`, { column: 'form', source: variable });
    return;
  }
  const form = formOf(row, formName, state);
  const key = state.rowKey.get(row) as string;
  const at = { formKey: form.key, fieldKey: key };
  if (key !== variable)
    note(row, 'changed', `变量名 ${variable} 不符合规则或重复，已改为 ${key}`, {
      ...at,
      column: 'variable',
      source: variable,
    });
  addSection(row, key, form, at, state);
  const { label, help } = labelAndHelp(row, variable, at, note);

  const field: FieldDefinition = { key, type: 'text', label };
  if (help) field.help = help;
  const ctx: FieldContext = {
    state,
    row,
    form,
    field,
    at,
    variable,
    redcapType: row.get('type').toLowerCase(),
    validation: row.get('validation').toLowerCase(),
    choices: row.get('choices'),
    min: row.get('min'),
    max: row.get('max'),
    rangeUsed: false,
  };
  applyFieldType(ctx);
  applyRowFlags(ctx);

  form.fields.push(field);
  state.fieldByKey.set(key, field);
}

/** Every row in file order, then one note for all custom alignments. */
export function importRows(rows: Row[], state: ImportState): void {
  for (const row of rows) importRow(row, state);
  const { notes } = state.report;
  const { alignmentRows } = state;
  if (alignmentRows.length > 0)
    notes.push({
      row: null,
      formKey: null,
      fieldKey: null,
      column: HEADER_NAMES.alignment,
      severity: 'untranslated',
      message: `自定义对齐方式是版面设置，本系统按统一版面显示，共 ${alignmentRows.length} 个字段的对齐方式未导入（第 ${alignmentRows.slice(0, 10).join('、')}${alignmentRows.length > 10 ? ' 等' : ''} 行）`,
      source: null,
    });
}
