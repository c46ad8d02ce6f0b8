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
 *
 * The columns and a value's encoding in a cell: excel-layout.ts; the export: excel-export.ts; the import:
 * excel-import.ts (a cell read as a value: excel-cells.ts).
 */

export { DICTIONARY_SHEET, MISSING_SHEET, formatOptions, parseOptions } from './excel-layout';
export { definitionToWorkbook } from './excel-export';
export { workbookToDefinition, type WorkbookImport } from './excel-import';

export const EXCEL_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
