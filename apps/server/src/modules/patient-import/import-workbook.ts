import ExcelJS from 'exceljs';
import type { ImportCellError } from '@registry/shared/contracts/patient-import';
import {
  PATIENT_GENDER_LABELS,
  PATIENT_GENDERS,
  PATIENT_STATUS_LABELS,
  PATIENT_STATUSES,
} from '@registry/shared/contracts/patient';
import { YES_NO_OPTIONS, type MissingCode } from '@registry/shared/forms/definition';
import { AppError } from '../../lib/errors';
import { loadUploadedWorkbook } from '../../lib/xlsx-guard';
import {
  columnLetter,
  FIRST_DATA_ROW,
  GUIDE_SHEET,
  HEADER_ROW,
  IMPORT_SHEET,
  KEY_ROW,
  MAX_IMPORT_ROWS,
  OPTIONS_SHEET,
  TEMPLATE_ROWS,
  type ImportColumn,
} from './import-columns';

/** What a cell holds, as exceljs reads it (dates as UTC-based `Date`s of the sheet's wall-clock time). */
export type RawCell = string | number | boolean | Date;

export type SheetCell = { column: ImportColumn; letter: string; raw: RawCell };
export type SheetRow = { rowNo: number; cells: SheetCell[] };

export const IMPORT_MESSAGES = {
  unreadable: '无法读取该文件，请上传由本系统生成的患者导入模板（.xlsx）',
  noSheet: `文件中没有工作表「${IMPORT_SHEET}」，请使用本系统生成的导入模板`,
  noKeys: `第${KEY_ROW}行应为变量名，请使用本系统生成的导入模板`,
  tooManyRows: `一次最多导入 ${MAX_IMPORT_ROWS} 行，请分成多个文件导入`,
  unknownKey: (key: string) => `未知的变量名 ${key}：该列不在当前发布的数据库版本中，请下载最新模板`,
  duplicateKey: (key: string, letter: string) => `变量名 ${key} 与 ${letter} 列重复`,
} as const;

// ---------------------------------------------------------------------------------------------------------------
// Template

type DataValidationsApi = { add(range: string, validation: ExcelJS.DataValidation): void };

/** What the template's drop-down lists offer (beyond the definition's own option lists). */
export type TemplateLists = {
  /** Open centers of the caller's scope. */
  centers: readonly { code: string; name: string }[];
  /** Options of the dictionaries the dict fields use (lists over 1000 options get no drop-down). */
  dictOptions: ReadonlyMap<string, readonly { code: string; label: string }[]>;
};

const MAX_LIST = 1000;

/** The labels a choice column offers in its drop-down, or null for none. */
function listOf(column: ImportColumn, lists: TemplateLists): string[] | null {
  if (column.kind === 'demographic') {
    if (column.key === 'gender') return PATIENT_GENDERS.map((g) => PATIENT_GENDER_LABELS[g]);
    if (column.key === 'status') return PATIENT_STATUSES.map((s) => PATIENT_STATUS_LABELS[s]);
    if (column.key === 'centerCode') return lists.centers.map((c) => c.code);
    return null;
  }
  const { field } = column;
  const missing = field.missingCodes ?? [];
  if (field.type === 'radio') return [...(field.options ?? []).map((o) => o.label), ...missing];
  if (field.type === 'yesno') return [...YES_NO_OPTIONS.map((o) => o.label), ...missing];
  if (field.type === 'dict') {
    const options = lists.dictOptions.get(field.dictCode ?? '') ?? [];
    return options.length > 0 && options.length <= MAX_LIST ? [...options.map((o) => o.label), ...missing] : null;
  }
  return null;
}

/**
 * The import template: sheet 患者数据 (labels in row 1 with a note on each, keys in row 2, data from row 3; text
 * columns formatted as text so Excel keeps leading zeros and long numbers; date columns as dates; drop-down lists
 * for choices, yes/no, gender, status and center), a hidden sheet of the lists, and sheet 填写说明.
 */
export async function buildTemplate(
  columns: readonly ImportColumn[],
  lists: TemplateLists,
  info: { projectName: string; versionNo: number; missingCodes: readonly MissingCode[] },
): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = '临床科研患者登记平台';
  const sheet = workbook.addWorksheet(IMPORT_SHEET, { views: [{ state: 'frozen', xSplit: 2, ySplit: KEY_ROW }] });
  const options = workbook.addWorksheet(OPTIONS_SHEET, { state: 'hidden' });
  const validations = (sheet as unknown as { dataValidations: DataValidationsApi }).dataValidations;
  let listColumn = 0;

  columns.forEach((column, index) => {
    const n = index + 1;
    const letter = columnLetter(n);
    const header = sheet.getCell(HEADER_ROW, n);
    header.value = column.header;
    header.note = column.note;
    header.font = { bold: true };
    header.fill = {
      type: 'pattern',
      pattern: 'solid',
      fgColor: { argb: column.kind === 'demographic' ? 'FFDDEBF7' : 'FFE2EFDA' },
    };
    const key = sheet.getCell(KEY_ROW, n);
    key.value = column.sheetKey;
    key.font = { italic: true, size: 9, color: { argb: 'FF808080' } };
    const sheetColumn = sheet.getColumn(n);
    sheetColumn.width = column.width;
    const isDate =
      (column.kind === 'demographic' && column.format === 'date') ||
      (column.kind === 'field' && column.field.type === 'date');
    const isText =
      (column.kind === 'demographic' && column.format === 'text') ||
      (column.kind === 'field' &&
        ['text', 'textarea', 'richtext', 'partialDate', 'datetime', 'checkbox'].includes(column.field.type));
    const numFmt = isDate ? 'yyyy-mm-dd' : isText ? '@' : undefined;
    if (numFmt)
      for (let r = FIRST_DATA_ROW; r < FIRST_DATA_ROW + TEMPLATE_ROWS; r++) sheet.getCell(r, n).numFmt = numFmt;

    const list = listOf(column, lists);
    if (list && list.length > 0) {
      listColumn += 1;
      const optionsLetter = columnLetter(listColumn);
      options.getCell(1, listColumn).value = column.sheetKey;
      list.forEach((label, i) => {
        options.getCell(i + 2, listColumn).value = label;
      });
      validations.add(`${letter}${FIRST_DATA_ROW}:${letter}${FIRST_DATA_ROW + TEMPLATE_ROWS - 1}`, {
        type: 'list',
        allowBlank: true,
        formulae: [`'${OPTIONS_SHEET}'!$${optionsLetter}$2:$${optionsLetter}$${list.length + 1}`],
        showErrorMessage: true,
        errorStyle: 'stop',
        errorTitle: column.header,
        error: '请从下拉列表中选择',
      });
    }
  });

  const guide = workbook.addWorksheet(GUIDE_SHEET);
  guide.columns = [
    { key: 'a', width: 14 },
    { key: 'b', width: 24 },
    { key: 'c', width: 16 },
    { key: 'd', width: 12 },
    { key: 'e', width: 70 },
  ];
  const lines: string[] = [
    `患者导入模板：${info.projectName}（数据库版本 v${info.versionNo}）`,
    '',
    `1. 在「${IMPORT_SHEET}」工作表中从第 ${FIRST_DATA_ROW} 行起每行填写一名患者；第 1 行为字段名称，第 2 行为变量名，请勿修改或删除这两行。`,
    '2. 可以删除不需要的列，但不要修改第 2 行的变量名；列的顺序可以调整。',
    '3. 新患者：“患者编号”留空，必须填写“姓名”；只属于一个中心的成员可不填“中心编码”。',
    '4. 已有患者：填写“患者编号”，或填写与系统中相同的“住院号”，即更新该患者；需要“修改患者”权限。',
    '5. 空白单元格不会修改已有数据；要清除已录入的数据，请在系统中编辑。',
    '6. 日期请填写为 Excel 日期或“YYYY-MM-DD”文本；身份证号请以文本格式填写（数字格式会丢失末位）。',
    '7. 单选、是/否和字典字段可填写选项名称或编码；多选字段的多个选项用逗号分隔。',
    '8. 先“检查”（不写入任何数据），确认没有错误后再“导入”；导入要么全部成功，要么不写入任何数据。',
    `9. 一次最多导入 ${MAX_IMPORT_ROWS} 行；计算字段由系统自动计算，无需填写；重复表单、随访表单、文件和表格字段不在模板中。`,
    '',
    '缺失值编码（字段允许时可代替数值或日期填写）：',
    ...info.missingCodes.map((m) => `    ${m.code}：${m.label}`),
  ];
  for (const line of lines) guide.addRow({ a: line });
  guide.getRow(1).font = { bold: true, size: 13 };
  guide.addRow({});
  const head = guide.addRow({ a: '列', b: '字段名称', c: '变量名', d: '类型', e: '说明' });
  head.font = { bold: true };
  columns.forEach((column, index) => {
    guide.addRow({
      a: columnLetter(index + 1),
      b: column.header,
      c: column.sheetKey,
      d: column.kind === 'demographic' ? '患者信息' : (column.note.split('\n')[1]?.replace('类型：', '') ?? ''),
      e: column.note.replace(/\n/g, '；'),
    });
  });

  return Buffer.from(await workbook.xlsx.writeBuffer());
}

// ---------------------------------------------------------------------------------------------------------------
// Reading

/** A cell's value whatever Excel made of it (rich text, formula result, hyperlink text); undefined when blank. */
function readCell(cell: ExcelJS.Cell): RawCell | undefined {
  const value = cell.value;
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  if (typeof value === 'number' || typeof value === 'boolean' || value instanceof Date) return value;
  if ('richText' in value) {
    const text = value.richText
      .map((part) => part.text)
      .join('')
      .trim();
    return text === '' ? undefined : text;
  }
  if ('formula' in value || 'sharedFormula' in value) {
    const result = (value as { result?: unknown }).result;
    if (typeof result === 'string') return result.trim() === '' ? undefined : result.trim();
    if (typeof result === 'number' || typeof result === 'boolean' || result instanceof Date) return result;
    return undefined;
  }
  if ('text' in value) {
    const text = String((value as { text: unknown }).text).trim();
    return text === '' ? undefined : text;
  }
  return undefined;
}

/** A cell's value as the report shows it. */
export function cellText(raw: RawCell): string {
  if (raw instanceof Date) {
    const iso = raw.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
  }
  if (typeof raw === 'boolean') return raw ? '是' : '否';
  return String(raw);
}

/**
 * The data rows of sheet 患者数据, their cells matched to the columns by the keys of row 2. Unknown or repeated keys
 * are errors of row 2; blank rows are skipped. An unreadable file, a missing sheet, no known key and too many rows
 * refuse the whole file (400).
 */
export async function readImportSheet(
  buffer: Buffer,
  columns: readonly ImportColumn[],
): Promise<{ rows: SheetRow[]; errors: ImportCellError[] }> {
  const workbook = await loadUploadedWorkbook(buffer); // a zip bomb is refused here (400)
  if (!workbook) throw new AppError(400, IMPORT_MESSAGES.unreadable);
  const sheet = workbook.getWorksheet(IMPORT_SHEET);
  if (!sheet) throw new AppError(400, IMPORT_MESSAGES.noSheet);

  const byKey = new Map(columns.map((c) => [c.sheetKey, c]));
  const errors: ImportCellError[] = [];
  const matched = new Map<number, { column: ImportColumn; letter: string }>();
  const seen = new Map<string, string>();
  const keyRow = sheet.getRow(KEY_ROW);
  keyRow.eachCell((cell, n) => {
    const raw = readCell(cell);
    if (raw === undefined) return;
    const key = cellText(raw);
    const letter = columnLetter(n);
    const header = (() => {
      const h = readCell(sheet.getCell(HEADER_ROW, n));
      return h === undefined ? '' : cellText(h);
    })();
    const column = byKey.get(key);
    const error = (message: string) =>
      errors.push({ row: KEY_ROW, column: letter, header, field: key, value: key, message });
    if (!column) return void error(IMPORT_MESSAGES.unknownKey(key));
    const first = seen.get(key);
    if (first !== undefined) return void error(IMPORT_MESSAGES.duplicateKey(key, first));
    seen.set(key, letter);
    matched.set(n, { column, letter });
  });
  if (matched.size === 0) throw new AppError(400, IMPORT_MESSAGES.noKeys);

  const rows: SheetRow[] = [];
  // only the rows the file holds (a column formatted to the sheet's end adds no row objects to walk)
  sheet.eachRow({ includeEmpty: false }, (row, r) => {
    if (r < FIRST_DATA_ROW || !row.hasValues) return;
    const cells: SheetCell[] = [];
    for (const [n, { column, letter }] of matched) {
      const raw = readCell(row.getCell(n));
      if (raw !== undefined) cells.push({ column, letter, raw });
    }
    if (cells.length === 0) return;
    rows.push({ rowNo: r, cells });
    if (rows.length > MAX_IMPORT_ROWS) throw new AppError(400, IMPORT_MESSAGES.tooManyRows);
  });
  return { rows, errors };
}
