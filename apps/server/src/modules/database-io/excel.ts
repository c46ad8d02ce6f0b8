import ExcelJS from 'exceljs';
import type { ImportNote } from '@registry/shared/contracts/form-definition';
import {
  definitionSchema,
  FIELD_TYPE_LABELS,
  FIELD_TYPES,
  VALIDATION_LEVELS,
  type AnyField,
  type Definition,
  type FieldOption,
  type FieldRule,
  type FieldType,
} from '@registry/shared/forms/definition';
import { loadUploadedWorkbook } from '../../lib/xlsx-guard';

/**
 * The data dictionary as an Excel workbook, one row per field, and back.
 *
 * Sheet 「数据字典」: a row per field, in definition order; a repeating group's columns are rows right after the group
 * row, with the group's key in 「所属重复组」. Every row repeats its category and form (the first row of a form is the
 * one read for the form's title and flags). Two kinds of rows keep empty containers: a row with an empty 「表单编码」
 * is a category without forms, a row with an empty 「变量名」 is a form without fields (a group without columns is
 * just its group row). Booleans are 是 / 否 (an empty cell is "not set"), options are `编码, 名称 | 编码, 名称` (a `|`
 * or `\` in a name is written `\|` / `\\`; codes cannot hold commas, so the first comma ends the code), rules are
 * JSON. Sheet 「缺失值编码」: the definition's missing-data codes (an absent sheet means the default codes).
 */

export const DICTIONARY_SHEET = '数据字典';
export const MISSING_SHEET = '缺失值编码';
export const EXCEL_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const YES = '是';
const NO = '否';
const LEVEL_LABELS: Record<(typeof VALIDATION_LEVELS)[number], string> = { hard: '强制', soft: '提醒' };
const ACCEPT_LABELS: Record<'image' | 'any', string> = { image: '图片', any: '任意文件' };

type Scalar = string | number | boolean | undefined;

/** Field properties with one column each (everything but key, type, group membership and `fields`). */
type FieldColumn = {
  header: string;
  width: number;
  /** A property of every field; `binding` only of a form's own fields (a group column's cell stays empty). */
  prop: keyof AnyField | 'binding';
  kind: 'string' | 'bool' | 'int' | 'number' | 'level' | 'accept' | 'codes' | 'options' | 'rules';
};

const FIELD_COLUMNS: FieldColumn[] = [
  { header: '字段名称', width: 30, prop: 'label', kind: 'string' },
  { header: '必填', width: 6, prop: 'required', kind: 'bool' },
  { header: '帮助说明', width: 24, prop: 'help', kind: 'string' },
  { header: '显示条件', width: 30, prop: 'showIf', kind: 'string' },
  { header: '隐私字段', width: 8, prop: 'phi', kind: 'bool' },
  { header: '列表显示', width: 8, prop: 'listColumn', kind: 'bool' },
  { header: '允许的缺失值编码', width: 16, prop: 'missingCodes', kind: 'codes' },
  { header: '单位', width: 8, prop: 'unit', kind: 'string' },
  { header: '小数位数', width: 8, prop: 'precision', kind: 'int' },
  { header: '最小值', width: 8, prop: 'min', kind: 'number' },
  { header: '最大值', width: 8, prop: 'max', kind: 'number' },
  { header: '最早日期', width: 12, prop: 'minDate', kind: 'string' },
  { header: '最晚日期', width: 12, prop: 'maxDate', kind: 'string' },
  { header: '范围校验级别', width: 10, prop: 'rangeLevel', kind: 'level' },
  { header: '正常值下限', width: 10, prop: 'normalLow', kind: 'number' },
  { header: '正常值上限', width: 10, prop: 'normalHigh', kind: 'number' },
  { header: '选项', width: 36, prop: 'options', kind: 'options' },
  { header: '字典编码', width: 12, prop: 'dictCode', kind: 'string' },
  { header: '计算公式', width: 30, prop: 'formula', kind: 'string' },
  { header: '最大长度', width: 8, prop: 'maxLength', kind: 'int' },
  { header: '文件类型', width: 10, prop: 'accept', kind: 'accept' },
  { header: '最多文件数', width: 10, prop: 'maxFiles', kind: 'int' },
  { header: '最少行数', width: 8, prop: 'minRows', kind: 'int' },
  { header: '最多行数', width: 8, prop: 'maxRows', kind: 'int' },
  { header: '校验规则', width: 36, prop: 'rules', kind: 'rules' },
  { header: '绑定患者信息', width: 18, prop: 'binding', kind: 'string' },
];

const H = {
  categoryKey: '分类编码',
  categoryTitle: '分类名称',
  formKey: '表单编码',
  formTitle: '表单名称',
  formDescription: '表单说明',
  followUp: '随访表单',
  repeating: '可重复表单',
  group: '所属重复组',
  key: '变量名',
  type: '字段类型',
  patternRegex: '正则表达式',
  patternMessage: '正则提示信息',
  patternLevel: '正则校验级别',
} as const;

const LEADING_COLUMNS: { header: string; width: number }[] = [
  { header: H.categoryKey, width: 14 },
  { header: H.categoryTitle, width: 16 },
  { header: H.formKey, width: 16 },
  { header: H.formTitle, width: 18 },
  { header: H.formDescription, width: 18 },
  { header: H.followUp, width: 8 },
  { header: H.repeating, width: 10 },
  { header: H.group, width: 12 },
  { header: H.key, width: 18 },
  { header: H.type, width: 14 },
];
const PATTERN_COLUMNS: { header: string; width: number }[] = [
  { header: H.patternRegex, width: 20 },
  { header: H.patternMessage, width: 20 },
  { header: H.patternLevel, width: 10 },
];
const ALL_COLUMNS = [...LEADING_COLUMNS, ...FIELD_COLUMNS, ...PATTERN_COLUMNS];

// ---------------------------------------------------------------------------------------------------------------
// Encoding helpers (shared by export and import)

const escapeOptionLabel = (label: string) => label.replace(/\\/g, '\\\\').replace(/\|/g, '\\|');

export function formatOptions(options: readonly FieldOption[]): string {
  return options.map((o) => `${o.code}, ${escapeOptionLabel(o.label)}`).join(' | ');
}

/** `1, 男 | 2, 女` → options; `\|`, `\,` and `\\` in a name stand for the character. Throws a Chinese message. */
export function parseOptions(text: string): FieldOption[] {
  const items: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\' && i + 1 < text.length) {
      current += ch + text[i + 1];
      i++;
    } else if (ch === '|') {
      items.push(current);
      current = '';
    } else current += ch;
  }
  items.push(current);
  return items
    .filter((item) => item.trim() !== '')
    .map((item) => {
      const comma = item.indexOf(',');
      if (comma < 0) throw new Error(`选项「${item.trim()}」缺少逗号，应为「编码, 名称」`);
      const code = item.slice(0, comma).trim();
      const label = item
        .slice(comma + 1)
        .replace(/\\(.)/g, '$1')
        .trim();
      return { code, label };
    });
}

function formatScalar(column: FieldColumn, value: unknown): Scalar {
  if (value === undefined || value === null) return undefined;
  switch (column.kind) {
    case 'bool':
      return value ? YES : NO;
    case 'level':
      return LEVEL_LABELS[value as 'hard' | 'soft'];
    case 'accept':
      return ACCEPT_LABELS[value as 'image' | 'any'];
    case 'codes':
      return (value as string[]).join(', ');
    case 'options':
      return formatOptions(value as FieldOption[]);
    case 'rules':
      return JSON.stringify(value as FieldRule[]);
    case 'int':
    case 'number':
      // -0 would read back as 0 from the sheet's number; keep it as text.
      return Object.is(value, -0) ? '-0' : (value as number);
    default:
      return value as string;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Export

type RowValues = Record<string, Scalar>;

function fieldRow(field: AnyField, groupKey: string | undefined): RowValues {
  const row: RowValues = { [H.group]: groupKey, [H.key]: field.key, [H.type]: FIELD_TYPE_LABELS[field.type] };
  for (const column of FIELD_COLUMNS)
    row[column.header] = formatScalar(column, (field as Partial<Record<string, unknown>>)[column.prop]);
  if (field.pattern) {
    row[H.patternRegex] = field.pattern.regex;
    row[H.patternMessage] = field.pattern.message;
    row[H.patternLevel] = LEVEL_LABELS[field.pattern.level];
  }
  return row;
}

/** The definition as an .xlsx workbook (see the module comment for the layout). */
export async function definitionToWorkbook(definition: Definition): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = '临床科研患者登记平台';
  const sheet = workbook.addWorksheet(DICTIONARY_SHEET, { views: [{ state: 'frozen', xSplit: 0, ySplit: 1 }] });
  sheet.columns = ALL_COLUMNS.map((c) => ({ header: c.header, key: c.header, width: c.width }));
  sheet.getRow(1).font = { bold: true };

  const rows: RowValues[] = [];
  for (const category of definition.categories) {
    const categoryCells = { [H.categoryKey]: category.key, [H.categoryTitle]: category.title };
    if (category.forms.length === 0) rows.push({ ...categoryCells });
    for (const form of category.forms) {
      const formCells: RowValues = {
        ...categoryCells,
        [H.formKey]: form.key,
        [H.formTitle]: form.title,
        [H.formDescription]: form.description,
        [H.followUp]: form.followUp === undefined ? undefined : form.followUp ? YES : NO,
        [H.repeating]: form.repeating === undefined ? undefined : form.repeating ? YES : NO,
      };
      if (form.fields.length === 0) rows.push({ ...formCells });
      for (const field of form.fields) {
        rows.push({ ...formCells, ...fieldRow(field, undefined) });
        for (const column of field.fields ?? []) rows.push({ ...formCells, ...fieldRow(column, field.key) });
      }
    }
  }
  for (const row of rows) sheet.addRow(row);

  const typeColumn = ALL_COLUMNS.findIndex((c) => c.header === H.type) + 1;
  const typeList = `"${FIELD_TYPES.map((t) => FIELD_TYPE_LABELS[t]).join(',')}"`;
  for (let r = 2; r <= rows.length + 200; r++) {
    sheet.getRow(r).getCell(typeColumn).dataValidation = {
      type: 'list',
      allowBlank: true,
      formulae: [typeList],
      showErrorMessage: true,
      errorTitle: '字段类型',
      error: '请从列表中选择字段类型',
    };
  }

  const missing = workbook.addWorksheet(MISSING_SHEET, { views: [{ state: 'frozen', xSplit: 0, ySplit: 1 }] });
  missing.columns = [
    { header: '编码', key: 'code', width: 12 },
    { header: '说明', key: 'label', width: 24 },
  ];
  missing.getRow(1).font = { bold: true };
  for (const code of definition.missingCodes) missing.addRow({ code: code.code, label: code.label });

  return Buffer.from(await workbook.xlsx.writeBuffer());
}

// ---------------------------------------------------------------------------------------------------------------
// Import

export type WorkbookImport = { definition: Definition | null; notes: ImportNote[] };

/** The text of a cell whatever Excel made of it (rich text, formula result, hyperlink, number, date). */
function cellValue(cell: ExcelJS.Cell): string | number | boolean | undefined {
  const value = cell.value;
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('formula' in value || 'sharedFormula' in value) {
    const result = (value as { result?: unknown }).result;
    if (typeof result === 'string' || typeof result === 'number' || typeof result === 'boolean') return result;
    return undefined;
  }
  if ('text' in value) return String((value as { text: unknown }).text);
  if ('error' in value) return undefined;
  return undefined;
}

class CellError extends Error {}

type SheetRow = { rowNo: number; get(header: string): string | number | boolean | undefined };

const TYPE_BY_TEXT = new Map<string, FieldType>();
for (const t of FIELD_TYPES) {
  TYPE_BY_TEXT.set(t.toLowerCase(), t);
  TYPE_BY_TEXT.set(FIELD_TYPE_LABELS[t].toLowerCase(), t);
}

function text(v: string | number | boolean | undefined): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'string') return v === '' ? undefined : v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return String(v);
}

function parseBool(v: string | number | boolean | undefined): boolean | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'boolean') return v;
  const s = String(v).trim().toLowerCase();
  if (s === '') return undefined;
  if (['是', 'y', 'yes', 'true', '1', '√'].includes(s)) return true;
  if (['否', 'n', 'no', 'false', '0'].includes(s)) return false;
  throw new CellError(`无法识别的是/否值 ${String(v)}`);
}

function parseNumber(v: string | number | boolean | undefined, integer: boolean): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'boolean') throw new CellError(`不是数字 ${String(v)}`);
  const s = String(v).trim();
  if (s === '') return undefined;
  const n = typeof v === 'number' ? v : Number(s);
  if (!Number.isFinite(n)) throw new CellError(`不是数字 ${s}`);
  if (integer && !Number.isInteger(n)) throw new CellError(`不是整数 ${s}`);
  return n;
}

function parseLevel(v: string | number | boolean | undefined): 'hard' | 'soft' | undefined {
  const s = text(v)?.trim();
  if (s === undefined) return undefined;
  if (s === LEVEL_LABELS.hard || s.toLowerCase() === 'hard') return 'hard';
  if (s === LEVEL_LABELS.soft || s.toLowerCase() === 'soft') return 'soft';
  throw new CellError(`无法识别的校验级别 ${s}（应为「强制」或「提醒」）`);
}

function parseAccept(v: string | number | boolean | undefined): 'image' | 'any' | undefined {
  const s = text(v)?.trim();
  if (s === undefined) return undefined;
  if (s === ACCEPT_LABELS.image || s === 'image') return 'image';
  if (s === ACCEPT_LABELS.any || s === 'any') return 'any';
  throw new CellError(`无法识别的文件类型 ${s}（应为「图片」或「任意文件」）`);
}

function parseRules(v: string | number | boolean | undefined): FieldRule[] | undefined {
  const s = text(v)?.trim();
  if (s === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(s);
  } catch {
    throw new CellError('不是有效的 JSON（应为 [{"expr": "...", "message": "...", "level": "hard"}]）');
  }
  if (!Array.isArray(parsed)) throw new CellError('应为规则的数组');
  return parsed as FieldRule[];
}

function parseColumn(column: FieldColumn, v: string | number | boolean | undefined): unknown {
  switch (column.kind) {
    case 'bool':
      return parseBool(v);
    case 'int':
      return parseNumber(v, true);
    case 'number':
      return parseNumber(v, false);
    case 'level':
      return parseLevel(v);
    case 'accept':
      return parseAccept(v);
    case 'codes': {
      const s = text(v);
      if (s === undefined) return undefined;
      return s
        .split(/[,，]/)
        .map((c) => c.trim())
        .filter((c) => c !== '');
    }
    case 'options': {
      const s = text(v);
      if (s === undefined) return undefined;
      try {
        return parseOptions(s);
      } catch (e) {
        throw new CellError((e as Error).message);
      }
    }
    case 'rules':
      return parseRules(v);
    default:
      return text(v);
  }
}

type Located = { row: number; column: string | null; formKey: string | null; fieldKey: string | null };

const note = (at: Located, message: string, source: string | null = null): ImportNote => ({
  row: at.row,
  formKey: at.formKey,
  fieldKey: at.fieldKey,
  column: at.column,
  severity: 'error',
  message: `第 ${at.row} 行${at.column ? `「${at.column}」` : ''}：${message}`,
  source,
});

/** Which column a property of a field, form or category is read from (for notes on schema errors). */
const COLUMN_OF_PROP: Record<string, string> = {
  key: H.key,
  type: H.type,
  pattern: H.patternRegex,
  ...Object.fromEntries(FIELD_COLUMNS.map((c) => [c.prop, c.header])),
};

/**
 * Reads a workbook written by `definitionToWorkbook` (or by a person following its layout). Any error note means the
 * file is refused (`definition` is null); the definition is checked with the schema (defaults applied), the engine's
 * `checkDefinition` is the caller's business.
 */
export async function workbookToDefinition(buffer: Buffer | Uint8Array): Promise<WorkbookImport> {
  const notes: ImportNote[] = [];
  // a zip bomb is refused here (400)
  const workbook = await loadUploadedWorkbook(Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength));
  if (!workbook) {
    return {
      definition: null,
      notes: [
        {
          row: null,
          formKey: null,
          fieldKey: null,
          column: null,
          severity: 'error',
          message: '无法读取该文件，请上传由本系统导出的 Excel 数据字典（.xlsx）',
          source: null,
        },
      ],
    };
  }
  const sheet = workbook.getWorksheet(DICTIONARY_SHEET);
  if (!sheet) {
    const error: ImportNote = {
      row: null,
      formKey: null,
      fieldKey: null,
      column: null,
      severity: 'error',
      message: `缺少工作表「${DICTIONARY_SHEET}」`,
      source: null,
    };
    return { definition: null, notes: [error] };
  }

  const headerIndex = new Map<string, number>();
  sheet.getRow(1).eachCell((cell, col) => {
    const name = text(cellValue(cell))?.trim();
    if (name) headerIndex.set(name, col);
  });
  for (const required of [H.categoryKey, H.formKey, H.key, H.type, '字段名称']) {
    if (!headerIndex.has(required)) {
      notes.push({
        row: 1,
        formKey: null,
        fieldKey: null,
        column: required,
        severity: 'error',
        message: `第 1 行：缺少列「${required}」`,
        source: null,
      });
    }
  }
  if (notes.length > 0) return { definition: null, notes };

  const rows: SheetRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNo) => {
    if (rowNo === 1) return;
    const get = (header: string) => {
      const col = headerIndex.get(header);
      return col === undefined ? undefined : cellValue(row.getCell(col));
    };
    const anyValue = [...headerIndex.keys()].some((h) => {
      const v = get(h);
      return v !== undefined && !(typeof v === 'string' && v.trim() === '');
    });
    if (anyValue) rows.push({ rowNo, get });
  });

  type RawForm = Record<string, unknown> & { key: string; fields: Record<string, unknown>[] };
  type RawCategory = { key: string; title: string | undefined; forms: RawForm[] };
  const categories: RawCategory[] = [];
  const categoryByKey = new Map<string, RawCategory>();
  const formByKey = new Map<string, RawForm>();
  /** Definition paths (`categories.0.forms.1.fields.2`) → sheet row, to place schema errors. */
  const rowOfPath = new Map<string, Located>();
  let lastGroup: { key: string; field: Record<string, unknown> } | null = null;

  for (const row of rows) {
    const at: Located = { row: row.rowNo, column: null, formKey: null, fieldKey: null };
    const read = <T>(header: string, parse: (v: string | number | boolean | undefined) => T): T | undefined => {
      try {
        return parse(row.get(header));
      } catch (e) {
        if (e instanceof CellError) {
          notes.push(note({ ...at, column: header }, e.message, text(row.get(header)) ?? null));
          return undefined;
        }
        throw e;
      }
    };
    const categoryKey = text(row.get(H.categoryKey))?.trim();
    if (!categoryKey) {
      notes.push(note({ ...at, column: H.categoryKey }, '分类编码不能为空'));
      continue;
    }
    let category = categoryByKey.get(categoryKey);
    const ci = category ? categories.indexOf(category) : categories.length;
    if (!category) {
      category = { key: categoryKey, title: text(row.get(H.categoryTitle))?.trim(), forms: [] };
      categoryByKey.set(categoryKey, category);
      categories.push(category);
      rowOfPath.set(`categories.${ci}`, { ...at, column: H.categoryTitle });
    }
    const formKey = text(row.get(H.formKey))?.trim();
    if (!formKey) continue;
    at.formKey = formKey;
    let form = formByKey.get(formKey);
    if (form && !category.forms.includes(form)) {
      notes.push(note({ ...at, column: H.formKey }, `表单编码 ${formKey} 已在其他分类中使用`));
      continue;
    }
    const fi = form ? category.forms.indexOf(form) : category.forms.length;
    if (!form) {
      form = { key: formKey, fields: [] };
      const title = text(row.get(H.formTitle))?.trim();
      if (title !== undefined) form.title = title;
      const description = text(row.get(H.formDescription));
      if (description !== undefined) form.description = description;
      const followUp = read(H.followUp, parseBool);
      if (followUp !== undefined) form.followUp = followUp;
      const repeating = read(H.repeating, parseBool);
      if (repeating !== undefined) form.repeating = repeating;
      formByKey.set(formKey, form);
      category.forms.push(form);
      rowOfPath.set(`categories.${ci}.forms.${fi}`, { ...at, column: H.formTitle });
      lastGroup = null;
    }
    const key = text(row.get(H.key))?.trim();
    if (!key) continue;
    at.fieldKey = key;

    const typeText = text(row.get(H.type))?.trim();
    const type = typeText ? TYPE_BY_TEXT.get(typeText.toLowerCase()) : undefined;
    if (!type) {
      notes.push(
        note({ ...at, column: H.type }, typeText ? `无法识别的类型 ${typeText}` : '字段类型不能为空', typeText ?? null),
      );
      continue;
    }
    const field: Record<string, unknown> = { key, type };
    for (const column of FIELD_COLUMNS) {
      const value = read(column.header, (v) => parseColumn(column, v));
      if (value !== undefined) field[column.prop] = value;
    }
    const regex = text(row.get(H.patternRegex));
    const message = text(row.get(H.patternMessage));
    const level = read(H.patternLevel, parseLevel);
    if (regex !== undefined || message !== undefined || level !== undefined) {
      field.pattern = { regex: regex ?? '', message: message ?? '', ...(level ? { level } : {}) };
    }

    const groupKey = text(row.get(H.group))?.trim();
    if (groupKey) {
      if (!lastGroup || lastGroup.key !== groupKey) {
        notes.push(note({ ...at, column: H.group }, `重复组 ${groupKey} 的列须紧跟在该重复组所在行之后`, groupKey));
        continue;
      }
      const columns = lastGroup.field.fields as Record<string, unknown>[];
      rowOfPath.set(`categories.${ci}.forms.${fi}.fields.${form.fields.length - 1}.fields.${columns.length}`, at);
      columns.push(field);
      continue;
    }
    rowOfPath.set(`categories.${ci}.forms.${fi}.fields.${form.fields.length}`, at);
    if (type === 'group') {
      field.fields = [];
      lastGroup = { key, field };
    } else lastGroup = null;
    form.fields.push(field);
  }

  let missingCodes: { code: string; label: string }[] | undefined;
  const missingSheet = workbook.getWorksheet(MISSING_SHEET);
  if (missingSheet) {
    missingCodes = [];
    missingSheet.eachRow({ includeEmpty: false }, (row, rowNo) => {
      if (rowNo === 1) return;
      const code = text(cellValue(row.getCell(1)))?.trim();
      const label = text(cellValue(row.getCell(2)))?.trim();
      if (code === undefined && label === undefined) return;
      missingCodes?.push({ code: code ?? '', label: label ?? '' });
    });
  }

  if (notes.length > 0) return { definition: null, notes };

  const parsed = definitionSchema.safeParse({
    categories: categories.map((c) => ({ key: c.key, title: c.title ?? '', forms: c.forms })),
    ...(missingCodes ? { missingCodes } : {}),
  });
  if (parsed.success) return { definition: parsed.data, notes };

  for (const issue of parsed.error.issues) {
    const path = issue.path.map(String);
    if (path[0] === 'missingCodes') {
      const index = Number(path[1] ?? 0);
      notes.push({
        row: Number.isFinite(index) ? index + 2 : null,
        formKey: null,
        fieldKey: null,
        column: path[2] === 'label' ? '说明' : '编码',
        severity: 'error',
        message: `工作表「${MISSING_SHEET}」第 ${Number.isFinite(index) ? index + 2 : '?'} 行：${issue.message}`,
        source: null,
      });
      continue;
    }
    // The longest path prefix that is a row; the next segment names the column.
    let located: Located | undefined;
    let rest: string[] = [];
    for (let n = path.length; n > 0 && !located; n--) {
      located = rowOfPath.get(path.slice(0, n).join('.'));
      rest = path.slice(n);
    }
    const prop = rest[0];
    const column =
      prop === undefined
        ? (located?.column ?? null)
        : prop === 'title'
          ? (located?.column ?? null)
          : prop === 'pattern' && rest[1] === 'message'
            ? H.patternMessage
            : (COLUMN_OF_PROP[prop] ?? located?.column ?? null);
    const where: Located = located
      ? { ...located, column }
      : { row: rows[0]?.rowNo ?? 2, column, formKey: null, fieldKey: null };
    notes.push(note(where, issue.message));
  }
  return { definition: null, notes };
}
