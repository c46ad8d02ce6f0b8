import ExcelJS from 'exceljs';
import { FIELD_TYPE_LABELS, FIELD_TYPES, type AnyField, type Definition } from '@registry/shared/forms/definition';
import {
  ALL_COLUMNS,
  DICTIONARY_SHEET,
  FIELD_COLUMNS,
  formatScalar,
  H,
  LEVEL_LABELS,
  MISSING_SHEET,
  NO,
  YES,
  type Scalar,
} from './excel-layout';

/** The export of the Excel data dictionary: the definition as a workbook (the layout: excel.ts). */

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
