import { Readable } from 'node:stream';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { CsvError, parse } from 'csv-parse';
import ExcelJS from 'exceljs';
import { DICT_IMPORT_MAX_ROWS } from '@registry/shared/contracts/dictionary';
import { AppError } from '../../lib/errors';
import { decodeText, detectDelimiter } from '../../lib/text-encoding';
import { assertXlsxWithinLimits } from '../../lib/xlsx-guard';

export const DICT_FILE_MESSAGES = {
  unsupported: '请上传 Excel（.xlsx）或 CSV 文件',
  unreadable: '无法读取该 Excel 文件，请确认文件未损坏且为 .xlsx 格式',
  noSheet: 'Excel 文件中没有工作表',
  unclosedQuote: (line: number) => `CSV 第 ${line} 行的引号没有闭合，请检查该行`,
  badCsv: (line: number, reason: string) => `CSV 第 ${line} 行格式有误：${reason}`,
  tooManyRows: `文件超过 ${DICT_IMPORT_MAX_ROWS} 行，请拆分后分批导入`,
} as const;

/** One non-blank row of the file: its number as a spreadsheet or editor shows it, and its cells as trimmed text. */
export type FileRow = { row: number; cells: string[] };
export type ReadFile = { rows: FileRow[]; encoding: string | null };

/** Rows between two yields to the event loop while a large file is turned into rows. */
const YIELD_EVERY = 2000;

function isXlsx(data: Buffer): boolean {
  return data.length > 4 && data[0] === 0x50 && data[1] === 0x4b && data[2] === 0x03 && data[3] === 0x04;
}

/**
 * The rows of an uploaded code list: the first worksheet of an .xlsx, or a CSV file in whatever encoding Excel saved
 * it (lib/text-encoding.ts: UTF-8, UTF-16 with BOM, GBK/GB18030, Windows-1252; anything else refused with the reason),
 * comma, semicolon or tab delimited. Both are read in chunks that yield to the event loop, and stop past the row limit.
 */
export async function readCodeListFile(fileName: string, data: Buffer): Promise<ReadFile> {
  const ext = fileName.toLowerCase().split('.').pop();
  if (isXlsx(data)) return { rows: await readXlsx(data), encoding: null };
  if (ext === 'xlsx' || ext === 'xls') throw new AppError(400, DICT_FILE_MESSAGES.unreadable);
  if (ext !== 'csv' && ext !== 'txt') throw new AppError(400, DICT_FILE_MESSAGES.unsupported);
  const decoded = decodeText(data);
  if (!decoded.ok) throw new AppError(400, decoded.message);
  return { rows: await readCsv(decoded.text), encoding: decoded.encoding };
}

async function readCsv(text: string): Promise<FileRow[]> {
  const parser = parse({ delimiter: detectDelimiter(text), relax_column_count: true, info: true, trim: true });
  const CHUNK = 64 * 1024;
  const chunks = function* () {
    for (let i = 0; i < text.length; i += CHUNK) yield text.slice(i, i + CHUNK);
  };
  Readable.from(chunks()).pipe(parser);
  const rows: FileRow[] = [];
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      pushRow(rows, info.lines, record);
      if (rows.length % YIELD_EVERY === 0) await yieldToLoop();
    }
  } catch (err) {
    if (err instanceof CsvError) {
      const line = Number((err as CsvError & { lines?: number }).lines ?? 0);
      if (err.code === 'CSV_QUOTE_NOT_CLOSED') throw new AppError(400, DICT_FILE_MESSAGES.unclosedQuote(line));
      throw new AppError(400, DICT_FILE_MESSAGES.badCsv(line, '引号或分隔符不符合 CSV 规则'));
    }
    throw err;
  }
  return rows;
}

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((r) => r.text).join('');
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
    if ('text' in value) return String(value.text);
    if ('error' in value) return '';
  }
  return String(value);
}

async function readXlsx(data: Buffer): Promise<FileRow[]> {
  await assertXlsxWithinLimits(data); // a zip bomb is refused before anything is unpacked
  const rows: FileRow[] = [];
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([data]), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  });
  let sheets = 0;
  try {
    for await (const sheet of reader) {
      sheets += 1;
      for await (const row of sheet) {
        const values = Array.isArray(row.values) ? row.values.slice(1) : [];
        pushRow(
          rows,
          row.number,
          values.map((v) => cellText(v as ExcelJS.CellValue)),
        );
        if (rows.length % YIELD_EVERY === 0) await yieldToLoop();
      }
      break; // the first worksheet only
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError(400, DICT_FILE_MESSAGES.unreadable);
  }
  if (sheets === 0) throw new AppError(400, DICT_FILE_MESSAGES.noSheet);
  return rows;
}

function pushRow(rows: FileRow[], row: number, raw: readonly unknown[]): void {
  const cells = Array.from(raw, (c) => (typeof c === 'string' ? c.trim() : c == null ? '' : String(c).trim()));
  if (cells.every((c) => c === '')) return;
  // the header row plus the data rows
  if (rows.length > DICT_IMPORT_MAX_ROWS) throw new AppError(400, DICT_FILE_MESSAGES.tooManyRows);
  rows.push({ row, cells });
}
