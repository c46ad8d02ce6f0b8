import type ExcelJS from 'exceljs';
import type { ImportNote } from '@registry/shared/contracts/form-definition';
import { definitionSchema, type Definition } from '@registry/shared/forms/definition';
import { loadUploadedWorkbook } from '../../lib/xlsx-guard';
import {
  cellValue,
  CellError,
  parseBool,
  parseColumn,
  parseLevel,
  text,
  TYPE_BY_TEXT,
  type SheetRow,
} from './excel-cells';
import { DICTIONARY_SHEET, FIELD_COLUMNS, H, MISSING_SHEET } from './excel-layout';

/**
 * The import of the Excel data dictionary: the sheet's rows → categories, forms, fields and group columns (each
 * definition path remembered with its row), the missing-data codes, then the schema; every problem is an error note
 * with its row and column (the layout: excel.ts).
 */

export type WorkbookImport = { definition: Definition | null; notes: ImportNote[] };

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

type RawForm = Record<string, unknown> & { key: string; fields: Record<string, unknown>[] };
type RawCategory = { key: string; title: string | undefined; forms: RawForm[] };
/** A cell read with its parser; a `CellError` becomes a note and the value undefined. */
type ReadCell = <T>(header: string, parse: (v: string | number | boolean | undefined) => T) => T | undefined;

/** The dictionary sheet, or the notes that refuse the file (unreadable, no such sheet). */
async function openSheet(
  buffer: Buffer | Uint8Array,
): Promise<
  { ok: true; workbook: ExcelJS.Workbook; sheet: ExcelJS.Worksheet } | { ok: false; refused: WorkbookImport }
> {
  // a zip bomb is refused here (400)
  const workbook = await loadUploadedWorkbook(Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength));
  if (!workbook) {
    return {
      ok: false,
      refused: {
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
      },
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
    return { ok: false, refused: { definition: null, notes: [error] } };
  }
  return { ok: true, workbook, sheet };
}

/** The sheet's data rows by header (rows without any value skipped); a required column missing is a note. */
function readRows(sheet: ExcelJS.Worksheet, notes: ImportNote[]): SheetRow[] {
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
  if (notes.length > 0) return [];

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
  return rows;
}

/** A row's field: its type, a value per column, its pattern; null when the type cannot be read (noted). */
function readField(
  row: SheetRow,
  at: Located,
  key: string,
  read: ReadCell,
  notes: ImportNote[],
): Record<string, unknown> | null {
  const typeText = text(row.get(H.type))?.trim();
  const type = typeText ? TYPE_BY_TEXT.get(typeText.toLowerCase()) : undefined;
  if (!type) {
    notes.push(
      note({ ...at, column: H.type }, typeText ? `无法识别的类型 ${typeText}` : '字段类型不能为空', typeText ?? null),
    );
    return null;
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
  return field;
}

/**
 * The rows → categories of forms of fields (a group's columns inside it), and the row of each definition path
 * (`categories.0.forms.1.fields.2`), to place schema errors.
 */
function buildCategories(
  rows: SheetRow[],
  notes: ImportNote[],
): { categories: RawCategory[]; rowOfPath: Map<string, Located> } {
  const categories: RawCategory[] = [];
  const categoryByKey = new Map<string, RawCategory>();
  const formByKey = new Map<string, RawForm>();
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

    const field = readField(row, at, key, read, notes);
    if (!field) continue;

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
    if (field.type === 'group') {
      field.fields = [];
      lastGroup = { key, field };
    } else lastGroup = null;
    form.fields.push(field);
  }
  return { categories, rowOfPath };
}

/** Sheet 「缺失值编码」: the definition's missing-data codes; undefined without the sheet (the defaults). */
function readMissingCodes(workbook: ExcelJS.Workbook): { code: string; label: string }[] | undefined {
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
  return missingCodes;
}

/** The schema's issues as notes, each at the row (and column) its path comes from. */
function schemaNotes(
  issues: { path: PropertyKey[]; message: string }[],
  rowOfPath: Map<string, Located>,
  rows: SheetRow[],
  notes: ImportNote[],
): void {
  for (const issue of issues) {
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
}

/**
 * Reads a workbook written by `definitionToWorkbook` (or by a person following its layout). Any error note means the
 * file is refused (`definition` is null); the definition is checked with the schema (defaults applied), the engine's
 * `checkDefinition` is the caller's business.
 */
export async function workbookToDefinition(buffer: Buffer | Uint8Array): Promise<WorkbookImport> {
  const notes: ImportNote[] = [];
  const opened = await openSheet(buffer);
  if (!opened.ok) return opened.refused;
  const { workbook, sheet } = opened;
  const rows = readRows(sheet, notes);
  if (notes.length > 0) return { definition: null, notes };
  const { categories, rowOfPath } = buildCategories(rows, notes);
  const missingCodes = readMissingCodes(workbook);

  if (notes.length > 0) return { definition: null, notes };

  const parsed = definitionSchema.safeParse({
    categories: categories.map((c) => ({ key: c.key, title: c.title ?? '', forms: c.forms })),
    ...(missingCodes ? { missingCodes } : {}),
  });
  if (parsed.success) return { definition: parsed.data, notes };
  schemaNotes(parsed.error.issues, rowOfPath, rows, notes);
  return { definition: null, notes };
}
